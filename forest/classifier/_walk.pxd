# The page pass's elements, as other native modules read them (forest/classifier/_features.pyx):
# the libxml2 nodes of one walk, in document order, and what the walk read of their attributes.
cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode


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
