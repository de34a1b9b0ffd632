# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Learning's page index in C: one walk over a parsed body's libxml2 nodes that lists its elements, their
parents, subtree ends and depths, their own text and tails, and names every element by its pattern keys.

It computes what ``patterns.dom.index_page`` computes over lxml's elements one Python attribute read
at a time (its reference: tests/learning/test_native_index.py asserts they are equal on every field
and key of the shared datasets' pages).  The keys themselves are spelled by patterns.dom's own
functions (``_own_keys``, ``_XPATH_NAME``), so the two cannot disagree on a key's text.

It reads lxml's and libxml2's structs as forest.classifier._walk does, and is built by the same
setup.py against the same lxml: importing that module first refuses a mismatched lxml version.
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, strcmp
from libc.stdint cimport int64_t

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlChar, xmlNode

from forest.classifier._walk cimport _is_text, _next_element, _text_or_skip

from forest.classifier._walk import BUILT_AGAINST  # noqa: F401  (its import checks lxml's version)
import numpy as np

from keywords.tokenize import tokenize
from patterns.dom import ANCHOR_DISTANCE, _XPATH_NAME, _own_keys

cetree.import_lxml__etree()



cdef object _value(xmlNode* c_node, const char* name):
    # element.get(name): the first attribute of that name in no namespace, else None.
    cdef xmlAttr* c_attr = c_node.properties
    while c_attr is not NULL:
        if c_attr.ns is NULL and strcmp(<const char*>c_attr.name, name) == 0:
            return cetree.attributeValue(c_node, c_attr)
        c_attr = c_attr.next
    return None


cdef enum:
    _TAG_SLOTS = 256  # index_body's cache of tags by name address: a page has a few dozen tags


cdef bint _identified(xmlNode* c_node) noexcept nogil:
    # Whether the element has an attribute in no namespace patterns.dom.IDENTIFYING_ATTRIBUTES names
    # (id, class, itemprop, role): without one, _own_keys of its tag and four Nones is _own_keys of its tag.
    cdef xmlAttr* c_attr = c_node.properties
    cdef const char* name
    while c_attr is not NULL:
        if c_attr.ns is NULL:
            name = <const char*>c_attr.name
            if strcmp(name, "id") == 0 or strcmp(name, "class") == 0 or strcmp(name, "itemprop") == 0 \
                    or strcmp(name, "role") == 0:
                return True
        c_attr = c_attr.next
    return False


cdef inline int _add(list terms, object text) except -1:
    # index_page's test: most texts between tags are the markup's indentation, with no terms.
    if text is not None and text and not (<str>text).isspace():
        terms.extend(tokenize(text))
    return 0


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object o)


cdef inline bint _alnum(unsigned char b) noexcept nogil:
    # keywords.tokenize's [^\W_] among ASCII characters: letters and digits.
    return (b >= 48 and b <= 57) or (b >= 65 and b <= 90) or (b >= 97 and b <= 122)


cdef bint _add_ascii(list terms, xmlNode* c_text) except -1:
    """keywords.tokenize's terms of a .text or .tail that is one text node of ASCII characters, added
    in C: runs of letters and digits, lower-cased, less those of digits alone (NFC leaves ASCII as it
    is, and an ASCII token is numeric exactly when it is digits).  False, adding nothing, for any other
    text: several nodes (lxml joins them), or a non-ASCII byte; its caller reads it in Python."""
    cdef const unsigned char* s = <const unsigned char*>c_text.content
    cdef Py_ssize_t i = 0, start, k
    cdef bint letters
    cdef unsigned char b
    cdef unsigned char* out
    if s is NULL or _text_or_skip(c_text.next) is not NULL:
        return False
    while s[i] != 0:
        if s[i] >= 0x80:
            return False
        i += 1
    i = 0
    while s[i] != 0:
        if not _alnum(s[i]):
            i += 1
            continue
        start = i
        letters = False
        while _alnum(s[i]):
            letters = letters or s[i] > 57
            i += 1
        if letters:
            token = PyUnicode_New(i - start, 127)
            out = <unsigned char*>PyUnicode_DATA(token)
            for k in range(i - start):
                b = s[start + k]
                out[k] = b + 32 if b >= 65 and b <= 90 else b
            terms.append(token)
    return True


cdef inline int _put(dict keys, str key, object i) except -1:
    found = keys.get(key)
    if found is None:
        keys[key] = [i]
    else:
        (<list>found).append(i)
    return 0


def index_body(root, bint with_keys=True):
    """``patterns.dom.index_page(root, with_keys=with_keys)``'s fields, as a tuple:
    (elements, parent, end, depth, terms, keys), the lists PageIndex holds."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef cetree._Document doc = top._doc
    cdef xmlNode* c_root = top._c_node
    cdef xmlNode* c_node = c_root
    cdef xmlNode* child
    cdef xmlNode* c_text
    cdef list elements = [], parent = [], end = [], depth = [], terms = []
    cdef list names = []  # each element's tag, None where XPath cannot name it
    cdef list anchors = []  # each element's anchor steps
    cdef dict keys = {}
    cdef dict nameable = {}  # tag -> whether XPath can name it: a page has a few dozen tags
    cdef const xmlChar* slot_name[_TAG_SLOTS]  # the name whose tag each slot holds (NULL: none yet)
    cdef list tag_slots = [None] * _TAG_SLOTS
    cdef bint usable_slots[_TAG_SLOTS]
    cdef size_t slot
    cdef bint usable
    memset(slot_name, 0, sizeof(slot_name))
    cdef Py_ssize_t cap = 64, d = 0, i = 0, n, up, level
    cdef int64_t* stack = <int64_t*>malloc(cap * sizeof(int64_t))  # element index at each open depth
    cdef int64_t* grown
    cdef list own
    cdef str tag, path, step, key
    if stack is NULL:
        raise MemoryError()
    if c_root.type != tree.XML_ELEMENT_NODE:
        free(stack)
        raise TypeError("index_body() needs an element")
    try:
        while True:
            # Enter c_node: element i at depth d.
            if d >= cap:
                cap *= 2
                grown = <int64_t*>realloc(stack, cap * sizeof(int64_t))
                if grown is NULL:
                    raise MemoryError()
                stack = grown
            stack[d] = i
            up = stack[d - 1] if d > 0 else -1
            elements.append(cetree.elementFactory(doc, c_node))
            parent.append(up)
            end.append(i)
            depth.append(d + 2)  # the body sits under html (level 1)
            own = []
            terms.append(own)
            # Most texts are one ASCII node, tokenized in C; the others as index_page tokenizes them.
            c_text = _text_or_skip(c_node.children)
            if c_text is not NULL and not _add_ascii(own, c_text):
                _add(own, cetree.textOf(c_node))
            if up >= 0:
                c_text = _text_or_skip(c_node.next)
                if c_text is not NULL and not _add_ascii(<list>terms[up], c_text):
                    _add(<list>terms[up], cetree.tailOf(c_node))
            if with_keys:
                # A tag in no namespace by the address of libxml2's name (its parser's dictionary gives each
                # name of the page one address), in a direct-mapped cache: not a new str for every element.
                slot = (<size_t>c_node.name >> 4) & (_TAG_SLOTS - 1)
                if c_node.ns is NULL and slot_name[slot] == c_node.name:
                    tag = <str>tag_slots[slot]
                    usable = usable_slots[slot]
                else:
                    tag = cetree.namespacedName(c_node)
                    known = nameable.get(tag)
                    if known is None:
                        known = nameable[tag] = _XPATH_NAME.match(tag) is not None
                    usable = known
                    if c_node.ns is NULL:
                        slot_name[slot] = c_node.name
                        tag_slots[slot] = tag
                        usable_slots[slot] = usable
                if not usable:
                    names.append(None)
                    anchors.append(())
                else:
                    names.append(tag)
                    if c_node.properties is not NULL and _identified(c_node):
                        mine, steps = _own_keys(tag, _value(c_node, "id"), _value(c_node, "class"),
                                                _value(c_node, "itemprop"), _value(c_node, "role"))
                    else:  # no identifying attribute (a link's href, an image's src): the keys of its tag alone
                        mine, steps = _own_keys(tag)
                    anchors.append(steps)
                    for key in mine:
                        _put(keys, key, i)
                    # Anchored paths: //div[@id='story']/div/p for every attributed ancestor close by.
                    path = tag
                    n = up
                    for level in range(ANCHOR_DISTANCE):
                        if n < 0:
                            break
                        for step in <tuple>anchors[n]:
                            _put(keys, f"//{step}/{path}", i)
                        above = names[n]
                        if above is None:
                            break
                        path = f"{above}/{path}"
                        n = <Py_ssize_t>parent[n]
            i += 1
            child = _next_element(c_node.children)
            if child is not NULL:
                c_node = child
                d += 1
                continue
            # Leave elements until one has a next sibling element; each left element's subtree ends at i - 1.
            while True:
                end[stack[d]] = i - 1
                if d == 0:
                    break
                child = _next_element(c_node.next)
                if child is not NULL:
                    break
                c_node = c_node.parent
                d -= 1
            if d == 0:
                break
            c_node = child
    finally:
        free(stack)
    return elements, parent, end, depth, terms, keys



_UNREAD = object()  # key_rows' mark of a key its cache has not read yet


def key_rows(dict keys, dict known, object steps_of, dict ids):
    """A page index's keys that a region's cut may use, as the rows forest.learning.consensus._PageParts
    holds, in the keys' order: for each key whose steps below its anchor (``known``'s, else
    ``steps_of(key)``'s, which keeps it there) are not None, its id in ``ids`` (added when new), those
    steps and its number of elements; and all their elements, key after key.

    Returns (ids, steps, counts, elements), each an int64 array.  The Python loop it stands for is
    tests/learning/test_native_index.py's reference: a page has thousands of keys, read once a page.
    """
    cdef list named = [], steps = [], counts = [], chosen = []
    cdef Py_ssize_t total = 0, at = 0, j, n
    cdef object below
    cdef list nodes
    for key, found in keys.items():
        below = known.get(key, _UNREAD)
        if below is _UNREAD:
            below = steps_of(key)
        if below is not None:
            nodes = <list?>found
            number = ids.get(key)
            if number is None:
                number = ids[key] = len(ids)
            named.append(number)
            steps.append(below)
            counts.append(len(nodes))
            chosen.append(nodes)
            total += len(nodes)
    elements = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] out = elements
    for nodes in chosen:
        n = len(nodes)
        for j in range(n):
            out[at + j] = <int64_t>nodes[j]
        at += n
    return (np.asarray(named, dtype=np.int64), np.asarray(steps, dtype=np.int64), np.asarray(counts, dtype=np.int64),
            elements)



cdef inline bint _named(xmlNode* c_node, const char* name) noexcept nogil:
    # element.tag == name for a tag in no namespace: lxml spells a namespaced element's tag "{href}name".
    return ((c_node.ns is NULL or c_node.ns.href is NULL)
            and strcmp(<const char*>c_node.name, name) == 0)


def tag_marks(list elements, list parent, tuple media):
    """Per element of a page index (``elements`` in document order, ``parent`` each one's parent's position,
    the first's unread): whether its tag is one of ``media``, and whether it is an ``a`` or inside one.

    Returns (media, linked): an int64 array of 0 and 1, and a bool array.  forest.learning.consensus
    read both through each element's ``tag`` in Python, thousands of elements a page (its reference,
    ``_tag_marks``, is tested equal in tests/learning/test_native_index.py).
    """
    cdef Py_ssize_t n = len(elements), i, t, m = len(media)
    cdef list names = [tag.encode("ascii") for tag in media]  # kept alive for the pointers below
    cdef const char** wanted = <const char**>malloc(max(m, 1) * sizeof(const char*))
    cdef xmlNode* c_node
    cdef cetree._Element element
    if wanted is NULL:
        raise MemoryError()
    marks = np.zeros(n, dtype=np.int64)
    linked = np.zeros(n, dtype=np.bool_)
    cdef int64_t[::1] mark = marks
    cdef unsigned char[::1] link = linked.view(np.uint8)
    try:
        for t in range(m):
            wanted[t] = <const char*>(<bytes>names[t])
        for i in range(n):
            element = <cetree._Element?>elements[i]
            c_node = element._c_node
            if c_node.type != tree.XML_ELEMENT_NODE:
                link[i] = i > 0 and link[<Py_ssize_t>parent[i]]
                continue
            for t in range(m):
                if _named(c_node, wanted[t]):
                    mark[i] = 1
                    break
            link[i] = _named(c_node, b"a") or (i > 0 and link[<Py_ssize_t>parent[i]])
    finally:
        free(wanted)
    return marks, linked


def in_landmarks(elements, tuple tags, frozenset roles):
    """For each element of ``elements`` (any iterable of elements), whether it or an ancestor has one of
    ``tags`` (in no namespace) or a ``role`` attribute of ``roles``: forest.learning.induce._in_landmark's
    answer (its reference, with _Landmarks, in tests/learning/test_learning_shortcuts.py), which read
    every block's ancestors through lxml's proxies in Python.  Returns a list of bools.
    """
    cdef Py_ssize_t t, m = len(tags)
    cdef list names = [tag.encode("ascii") for tag in tags]  # kept alive for the pointers below
    cdef const char** wanted = <const char**>malloc(max(m, 1) * sizeof(const char*))
    cdef list found = []
    cdef xmlNode* c_node
    cdef bint inside
    if wanted is NULL:
        raise MemoryError()
    try:
        for t in range(m):
            wanted[t] = <const char*>(<bytes>names[t])
        for element in elements:
            c_node = (<cetree._Element?>element)._c_node
            inside = False
            while c_node is not NULL and not inside:
                if c_node.type == tree.XML_ELEMENT_NODE:
                    for t in range(m):
                        if _named(c_node, wanted[t]):
                            inside = True
                            break
                    if not inside and c_node.properties is not NULL:
                        role = _value(c_node, "role")
                        inside = role is not None and role in roles
                c_node = c_node.parent
                if c_node is not NULL and c_node.type != tree.XML_ELEMENT_NODE:
                    break  # lxml's getparent(): the document above the root is no parent
            found.append(inside)
    finally:
        free(wanted)
    return found
