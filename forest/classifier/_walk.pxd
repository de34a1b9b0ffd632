# The page pass's elements, as other native modules read them (forest/classifier/_features.pyx):
# the libxml2 nodes of one walk, in document order.
cimport lxml.includes.etreepublic as cetree
from lxml.includes.tree cimport xmlNode


cdef class Nodes:
    cdef cetree._Document doc
    cdef object root
    cdef xmlNode** nodes
    cdef Py_ssize_t n, capacity

    cdef int append(self, xmlNode* c_node) except -1
