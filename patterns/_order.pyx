# cython: language_level=3, boundscheck=False, wraparound=False
"""Undo what an XSLT pass leaves in a tree: libxml2's cached document order.

libxslt numbers the elements of the tree it transforms (``xmlXPathOrderDocElems``: each
element's otherwise unused ``content`` field holds minus its rank), so that XPath can sort node
sets by comparing two numbers.  lxml transforms an element by handing libxslt a document whose
root is that element: the numbers restart at each transformed subtree.  After two subtrees have
been transformed, XPath sorts their nodes by ranks that do not compare, and a union such as
``//div[@id='b']/p | //div[@id='a']/p`` comes back out of document order.  Clearing the numbers
brings back libxml2's own comparison, which walks the tree.

It reads ``_Element._c_node`` and libxml2's node fields (type, content, children, next,
parent) through lxml's public C API, and nothing of lxml's internals: unlike the page pass, it
does not check lxml's version itself.  forest's page pass (forest/classifier/_walk.pyx) refuses
another lxml major.minor for the whole install, with forest's one-line error; this package sits
below forest and could only raise a bare ImportError.
"""

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode
from libc.stdint cimport intptr_t

cetree.import_lxml__etree()


def forget_order(cetree._Element element not None) -> None:
    """Clear libxml2's cached document order from ``element`` and every element under it."""
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node = top
    while node is not NULL:
        if node.type == tree.XML_ELEMENT_NODE and <intptr_t>node.content < 0:
            node.content = NULL
        # Depth first, in document order, never above ``top``.
        if node.children is not NULL and node.type == tree.XML_ELEMENT_NODE:
            node = node.children
            continue
        while node is not top and node.next is NULL:
            node = node.parent
        if node is top:
            break
        node = node.next
