# The page pass's elements, as other native modules read them (forest/classifier/_features.pyx):
# the libxml2 nodes of one walk, in document order, and what the walk read of their attributes;
# and the steps over libxml2's nodes every native pass takes (learning's page index too).
cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode
from libc.string cimport strcmp


cdef class Nodes:
    cdef cetree._Document doc
    cdef object root
    cdef xmlNode** nodes
    cdef Py_ssize_t n, capacity
    # Read in the walk when it is given marking names (``marking`` is then those names, else None):
    # each element's first class and id attribute without a namespace (NULL for none), and the
    # elements with an attribute named in ``marking``, in document order.
    cdef frozenset marking
    cdef tree.xmlAttr** class_attr
    cdef tree.xmlAttr** id_attr
    cdef list marked

    cdef int append(self, xmlNode* c_node) except -1
    cdef int scan(self, xmlNode* c_node, const bint* initial, list encoded) except -1


cdef inline bint _is_text(xmlNode* c_node) noexcept nogil:
    return c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE


cdef inline xmlNode* _text_or_skip(xmlNode* c_node) noexcept nogil:
    # lxml's _textNodeOrSkip: the text node that starts a .text or .tail, past XInclude markers.
    while c_node is not NULL:
        if _is_text(c_node):
            return c_node
        if c_node.type == tree.XML_XINCLUDE_START or c_node.type == tree.XML_XINCLUDE_END:
            c_node = c_node.next
        else:
            return NULL
    return NULL


cdef inline xmlNode* _next_element(xmlNode* c_node) noexcept nogil:
    while c_node is not NULL and c_node.type != tree.XML_ELEMENT_NODE:
        c_node = c_node.next
    return c_node


cdef inline xmlNode* _after_subtree(xmlNode* c_node, xmlNode* c_top) noexcept nogil:
    # The node after ``c_node``'s subtree in document order, within ``c_top``'s: its next sibling, else
    # the next sibling of its nearest ancestor that has one; NULL once the walk is back at ``c_top``.
    while c_node is not c_top and c_node.next is NULL:
        c_node = c_node.parent
    return NULL if c_node is c_top else c_node.next


cdef inline xmlNode* _next_in(xmlNode* c_node, xmlNode* c_top) noexcept nogil:
    # The node after ``c_node`` in a walk of ``c_top``'s subtree in document order: an element's first
    # child (an entity reference's are the entity's, never walked), else the node after its subtree.
    if c_node.type == tree.XML_ELEMENT_NODE and c_node.children is not NULL:
        return c_node.children
    return _after_subtree(c_node, c_top)


cdef inline tree.xmlAttr* _attribute(xmlNode* c_node, const char* name) noexcept nogil:
    # The attribute element.get(name) reads: the first of that name in no namespace.
    cdef tree.xmlAttr* c_attr = c_node.properties
    while c_attr is not NULL:
        if c_attr.ns is NULL and strcmp(<const char*>c_attr.name, name) == 0:
            return c_attr
        c_attr = c_attr.next
    return NULL
