# SPDX-License-Identifier: Apache-2.0
"""Arrow arrays for the tests without pyarrow (not in Debian 12): ArrowSchema /
ArrowArray structs of the Arrow C Data Interface built with ctypes, exported
through the Arrow PyCapsule interface (`__arrow_c_array__` returns capsules named
"arrow_schema" and "arrow_array" whose destructors call the release callback if
the consumer did not). Every export and every release is counted, so a test can
check each struct is released exactly once."""
import ctypes
from ctypes import CFUNCTYPE, POINTER, Structure, c_char_p, c_int64, c_void_p

import numpy as np


class ArrowSchema(Structure):
    pass


class ArrowArray(Structure):
    pass


SchemaRelease = CFUNCTYPE(None, POINTER(ArrowSchema))
ArrayRelease = CFUNCTYPE(None, POINTER(ArrowArray))
ArrowSchema._fields_ = [("format", c_char_p), ("name", c_char_p), ("metadata", c_char_p),
                        ("flags", c_int64), ("n_children", c_int64),
                        ("children", POINTER(POINTER(ArrowSchema))),
                        ("dictionary", POINTER(ArrowSchema)),
                        ("release", SchemaRelease), ("private_data", c_void_p)]
ArrowArray._fields_ = [("length", c_int64), ("null_count", c_int64), ("offset", c_int64),
                       ("n_buffers", c_int64), ("n_children", c_int64),
                       ("buffers", POINTER(c_void_p)), ("children", POINTER(POINTER(ArrowArray))),
                       ("dictionary", POINTER(ArrowArray)),
                       ("release", ArrayRelease), ("private_data", c_void_p)]

ARROW_FLAG_NULLABLE = 2
SCHEMA_NAME = b"arrow_schema"
ARRAY_NAME = b"arrow_array"

# Releases per exported struct (by its private_data, a serial number: addresses
# are reused once a struct is freed); what an export keeps alive until released.
RELEASES = {}
_ALIVE = {}

_CapsuleDestructor = CFUNCTYPE(None, c_void_p)  # the capsule as an address: it is being freed
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [c_void_p, c_char_p, c_void_p]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = c_void_p
_capsule_pointer.argtypes = [c_void_p, c_void_p]
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = c_void_p
_capsule_name.argtypes = [c_void_p]


def _pointer_of(capsule):
    """The capsule's pointer under whatever name it was given (a test may give a wrong one)."""
    return _capsule_pointer(capsule, _capsule_name(capsule))


_SERIAL = [0]


def _released(struct):
    RELEASES[struct.private_data] += 1
    _ALIVE.pop(struct.private_data, None)


def _release_callback(callback_type):
    """A release callback: a parent's releases its dictionary (consumers never do)."""

    def release(pointer):
        struct = pointer.contents
        if struct.dictionary and struct.dictionary.contents.release:
            struct.dictionary.contents.release(struct.dictionary)
        struct.release = callback_type()
        _released(struct)  # last: this may free the struct

    return callback_type(release)


def _capsule_destructor(struct_type):
    """A capsule destructor: releases the struct unless the consumer moved or released it."""

    def freed(capsule):
        pointer = ctypes.cast(_pointer_of(capsule), POINTER(struct_type))
        if pointer.contents.release:
            pointer.contents.release(pointer)

    return _CapsuleDestructor(freed)


_release_schema = _release_callback(SchemaRelease)
_release_array = _release_callback(ArrayRelease)
_schema_capsule_freed = _capsule_destructor(ArrowSchema)
_array_capsule_freed = _capsule_destructor(ArrowArray)


def _address(buffer):
    return None if buffer is None else buffer.ctypes.data


class Exported:
    """One Arrow array: format, length, buffers (numpy arrays or None), offset,
    null_count and an optional dictionary (another Exported)."""

    def __init__(self, format, length, buffers, offset=0, null_count=0, dictionary=None):
        self.format = format.encode()
        self.length, self.offset, self.null_count = length, offset, null_count
        self.buffers = [None if b is None else np.ascontiguousarray(b) for b in buffers]
        self.dictionary = dictionary
        self.capsule_names = (SCHEMA_NAME, ARRAY_NAME)

    def _structs(self, keep):
        schema, array = ArrowSchema(), ArrowArray()
        schema.release, array.release = _release_schema, _release_array  # mandatory, children too
        schema.format, schema.name, schema.flags = self.format, b"col", ARROW_FLAG_NULLABLE
        pointers = (c_void_p * max(len(self.buffers), 1))(*[_address(b) for b in self.buffers])
        array.length, array.null_count, array.offset = self.length, self.null_count, self.offset
        array.n_buffers, array.buffers = len(self.buffers), pointers
        keep += [self, pointers]
        if self.dictionary is not None:
            # The dictionary belongs to its parent: released with it, never alone.
            dict_schema, dict_array = self.dictionary._structs(keep)
            keep += [dict_schema, dict_array]
            schema.dictionary, array.dictionary = ctypes.pointer(dict_schema), ctypes.pointer(dict_array)
        return schema, array

    def __arrow_c_array__(self, requested_schema=None):
        assert requested_schema is None
        keep = []
        schema, array = self._structs(keep)
        for struct in [schema, array] + [s for s in keep if isinstance(s, (ArrowSchema, ArrowArray))]:
            _SERIAL[0] += 1
            struct.private_data = _SERIAL[0]
            _ALIVE[_SERIAL[0]] = (struct, keep)
            RELEASES[_SERIAL[0]] = 0
        return (_capsule_new(ctypes.addressof(schema), self.capsule_names[0],
                             ctypes.cast(_schema_capsule_freed, c_void_p)),
                _capsule_new(ctypes.addressof(array), self.capsule_names[1],
                             ctypes.cast(_array_capsule_freed, c_void_p)))


PAD = 3  # every array built below is a slice: rows start at Arrow position PAD


def validity(valid, pad=PAD):
    bits = np.array([True] * pad + list(valid) + [False] * 8, dtype=bool)
    return np.packbits(bits, bitorder="little")


def primitive(format, values, dtype, pad=PAD):
    """values (None = null) as a sliced fixed-width array of `dtype`."""
    valid = [v is not None for v in values]
    data = np.array([0] * pad + [0 if v is None else v for v in values], dtype=dtype)
    return Exported(format, len(values), [validity(valid, pad), data], pad, valid.count(False))


def strings(values, large=False, pad=PAD):
    """str / bytes (None = null) as a sliced utf8 ("u") or large_utf8 ("U") array."""
    encoded = [b"" if v is None else (v.encode() if isinstance(v, str) else v) for v in values]
    data = b"pad" * pad + b"".join(encoded)
    offsets = [3 * i for i in range(pad + 1)]
    for e in encoded:
        offsets.append(offsets[-1] + len(e))
    valid = [v is not None for v in values]
    return Exported("U" if large else "u", len(values),
                    [validity(valid, pad), np.array(offsets, dtype=np.int64 if large else np.int32),
                     np.frombuffer(data + b"\0", dtype=np.uint8)], pad, valid.count(False))


def string_views(values, pad=PAD):
    """str (None = null) as a sliced string view array ("vu"): short values inline."""
    views, heap = [bytes(16)] * pad, b""
    for v in values:
        e = b"" if v is None else v.encode()
        if len(e) <= 12:
            views.append(len(e).to_bytes(4, "little") + e.ljust(12, b"\0"))
        else:
            views.append(len(e).to_bytes(4, "little") + e[:4] + (0).to_bytes(4, "little")
                         + len(heap).to_bytes(4, "little"))
            heap += e
    valid = [v is not None for v in values]
    return Exported("vu", len(values),
                    [validity(valid, pad), np.frombuffer(b"".join(views), dtype=np.uint8),
                     np.frombuffer(heap + b"\0", dtype=np.uint8), np.array([len(heap)], dtype=np.int64)],
                    pad, valid.count(False))


def dictionary_encoded(indices, index_format, index_dtype, dictionary, pad=PAD):
    """indices (None = null) into `dictionary` (an Exported)."""
    encoded = primitive(index_format, indices, index_dtype, pad)
    encoded.dictionary = dictionary
    return encoded
