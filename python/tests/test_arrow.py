# SPDX-License-Identifier: Apache-2.0
"""Objects with __arrow_c_array__ (the Arrow PyCapsule interface) as insert_values /
find_values input, through blockbloom/arrow.hpp: the same filter and answers as the
same values given as numpy arrays (with a mask) or lists, nulls left out; the
capsules' structs released exactly once; what the adapter refuses refused with its
codes."""
import gc

import numpy as np
import pytest

import blockbloom
from arrow_capsules import (ARRAY_NAME, PAD, RELEASES, Exported, dictionary_encoded, primitive,
                            string_views, strings, validity)

ARROW_UNSUPPORTED_TYPE, ARROW_MALFORMED, ARROW_DICTIONARY_INDEX = -55, -56, -57

INTS = [5, None, -3, 7, None, 2**6, 0, 1, None, 9, 11, -128, 127]


def numpy_with_mask(values, dtype):
    mask = np.array([v is None for v in values])
    return np.array([0 if v is None else v for v in values], dtype=dtype), mask


def same_as(arrow, values, mask=None, layout="parquet"):
    """The filters of arrow and of values (mask) are equal, and so are the probes
    of arrow against a filter of half of its rows."""
    by_arrow = blockbloom.Filter(4096, layout=layout)
    by_arrow.insert_values(arrow)
    reference = blockbloom.Filter(4096, layout=layout)
    reference.insert_values(values, mask=mask)
    assert by_arrow == reference
    assert not by_arrow.always_false if layout == "kudu" else bytes(by_arrow) != bytes(4096)
    half = blockbloom.Filter(4096, layout=layout)
    half.insert_values(values[:len(values) // 2], mask=None if mask is None else mask[:len(values) // 2])
    got, want = half.find_values(arrow), half.find_values(values, mask=mask)
    assert got.dtype == np.bool_ and got.tolist() == want.tolist()
    assert 0 < got.sum() < len(values)


@pytest.mark.parametrize("format,dtype", [("c", np.int8), ("s", np.int16), ("i", np.int32), ("l", np.int64),
                                          ("C", np.uint8), ("S", np.uint16), ("I", np.uint32),
                                          ("L", np.uint64), ("f", np.float32), ("g", np.float64)])
def test_sliced_primitive_arrays_with_nulls_hash_as_numpy_arrays(format, dtype):
    unsigned = np.dtype(dtype).kind == "u"
    values = [abs(v) if unsigned and v is not None else v for v in INTS]
    arrow = primitive(format, values, dtype)
    same_as(arrow, *numpy_with_mask(values, dtype))


@pytest.mark.parametrize("format,dtype", [("c", np.int8), ("i", np.int32), ("l", np.int64), ("g", np.float64)])
def test_kudu_filters_take_arrow_arrays_too(format, dtype):
    same_as(primitive(format, INTS, dtype), *numpy_with_mask(INTS, dtype), layout="kudu")


def test_date32_is_a_date_as_datetime64_days_are():
    days = [19000, None, -1, 0, 1, 20000, None, 7]
    values, mask = numpy_with_mask(days, np.int64)
    same_as(primitive("tdD", days, np.int32), values.astype("datetime64[D]"), mask)


STRINGS = ["apple", None, "", "a longer value than twelve bytes", "é", None, "kiwi", "x" * 40, "z"]


@pytest.mark.parametrize("build", [lambda v: strings(v), lambda v: strings(v, large=True), string_views],
                         ids=["utf8", "large_utf8", "string_view"])
def test_strings_with_nulls_hash_as_a_list_of_str(build):
    same_as(build(STRINGS), STRINGS)


@pytest.mark.parametrize("index_format,index_dtype", [("c", np.int8), ("S", np.uint16), ("i", np.int32),
                                                      ("L", np.uint64)])
def test_dictionary_arrays_hash_by_value(index_format, index_dtype):
    entries = ["red", None, "green", "a blue that does not fit inline"]
    indices = [0, 2, None, 1, 3, 3, 0, None, 2, 1, 0]
    arrow = dictionary_encoded(indices, index_format, index_dtype, strings(entries))
    rows = [None if i is None else entries[i] for i in indices]
    same_as(arrow, rows)


def test_every_exported_struct_is_released_exactly_once():
    gc.collect()
    before = set(RELEASES)
    f = blockbloom.Filter(1024)
    arrow = dictionary_encoded([0, 1, None], "i", np.int32, strings(["a", "b"]))
    f.insert_values(arrow)
    f.find_values(arrow)
    with pytest.raises(blockbloom.Error):
        f.insert_values(primitive("b", [1, 0], np.uint8))
    gc.collect()
    exported = {address: count for address, count in RELEASES.items() if address not in before}
    assert len(exported) == 10  # a schema and an array per call, and the dictionary's
    assert set(exported.values()) == {1}


def refused(status, call, arrow):
    with pytest.raises(blockbloom.Error) as e:
        call(arrow)
    assert e.value.status == status


def test_formats_without_a_typed_column_are_refused_with_their_code():
    f = blockbloom.Filter(1024)
    for arrow in (primitive("b", [1, 0], np.uint8), primitive("tDs", [1], np.int64),
                  primitive("d:9,-2,32", [1], np.int32)):
        refused(ARROW_UNSUPPORTED_TYPE, f.insert_values, arrow)
    assert bytes(f) == bytes(1024)


def test_timestamp_and_time_seconds_hash_as_the_milliseconds_parquet_stores():
    """Arrow's Parquet writer stores seconds as milliseconds (Parquet has no seconds):
    a seconds array and the milliseconds array of the same instants give one filter."""
    seconds = [1_700_000_000, None, 0, -5, 86_400]
    for s_format, ms_format in (("tss:", "tsm:"), ("tss:UTC", "tsm:UTC"), ("tts", "ttm")):
        dtype = np.int32 if s_format == "tts" else np.int64
        rows = seconds if s_format != "tts" else [1, None, 0, 59, 86_399]
        by_seconds = blockbloom.Filter(4096)
        by_seconds.insert_values(primitive(s_format, rows, dtype))
        by_millis = blockbloom.Filter(4096)
        by_millis.insert_values(primitive(ms_format, [None if r is None else r * 1000 for r in rows], dtype))
        assert by_seconds == by_millis
        assert bytes(by_seconds) != bytes(4096)


def test_decimals_go_into_parquet_filters_as_the_decimal_column_arrow_writes():
    """decimal128(9, 2) / decimal32 arrays hash as DECIMAL(9,2) on FIXED_LEN_BYTE_ARRAY(4),
    as Arrow's writer and pyarrow's default store them: the unscaled values as 4 big-endian
    two's complement bytes, as those bytes into a fixed(4) filter hash."""
    unscaled = [12345, None, -1, 0, 999_999_999]
    reference = blockbloom.Filter(4096, type="fixed(4)")
    reference.insert_values([v.to_bytes(4, "big", signed=True) for v in unscaled if v is not None])
    narrow = blockbloom.Filter(4096)
    narrow.insert_values(primitive("d:9,2,32", unscaled, np.int32))
    assert bytes(narrow) == bytes(reference)
    assert bytes(narrow) != bytes(4096)
    wide = [None if v is None else [v, -1 if v < 0 else 0] for v in unscaled]  # int128 as two int64
    data = np.array([[0, 0]] * 3 + [[0, 0] if w is None else w for w in wide], dtype=np.int64)
    valid = [v is not None for v in unscaled]
    decimal128 = Exported("d:9,2", len(unscaled), [validity(valid, PAD), data.reshape(-1)], PAD,
                          valid.count(False))
    by_128 = blockbloom.Filter(4096)
    by_128.insert_values(decimal128)
    assert by_128 == narrow


def test_malformed_arrays_and_bad_indices_are_refused_with_their_codes():
    f = blockbloom.Filter(1024)
    broken = primitive("i", [1, 2], np.int32)
    broken.buffers.append(None)  # three buffers for an int32 array
    refused(ARROW_MALFORMED, f.find_values, broken)
    refused(ARROW_DICTIONARY_INDEX, f.insert_values,
            dictionary_encoded([0, 5], "i", np.int32, strings(["a", "b"])))
    assert bytes(f) == bytes(1024)


def test_mask_is_refused_and_type_converts_an_arrow_array():
    f = blockbloom.Filter(1024)
    arrow = primitive("i", [1, 2], np.int32)
    with pytest.raises(TypeError, match="validity"):
        f.insert_values(arrow, mask=[False, True])
    f.insert_values(arrow, type="int64")  # int32 values into the INT64 type the call names
    assert f.type == blockbloom.Filter(32, type="int64").type
    assert f.find_values(np.array([1, 2, 3], dtype=np.int64)).tolist() == [True, True, False]


def test_typed_filters_check_the_arrays_physical_type():
    typed = blockbloom.Filter(1024, type="int32")
    typed.insert_values(primitive("s", [4, None, -4], np.int16))
    reference = blockbloom.Filter(1024, type="int32")
    reference.insert_values(np.array([4, -4], dtype=np.int16))
    assert typed == reference
    with pytest.raises(blockbloom.Error, match="format 'u'.*row 0"):  # text on an int: the text rule
        typed.insert_values(strings(["a"]))
    assert typed.find_values(strings(["4", "-4", "5"])).tolist() == [True, True, False]
    text = blockbloom.Filter(1024, type="string")
    text.insert_values(strings(["a", None]))
    assert text.find_values(["a", "b"]).tolist() == [True, False]


def test_capsules_must_carry_the_interfaces_names():
    arrow = primitive("i", [1], np.int32)
    arrow.capsule_names = (ARRAY_NAME, ARRAY_NAME)
    with pytest.raises(TypeError, match="arrow_schema"):
        blockbloom.Filter(1024).insert_values(arrow)


def test_times_and_timestamps_convert_into_the_filters_unit():
    counts = [1_700_000_000_000, None, 0, -5, 86_400_000]
    typed = blockbloom.Filter(1024, type="timestamp(ms)")
    typed.insert_values(primitive("tsm:", counts, np.int64))
    reference = blockbloom.Filter(1024, type="timestamp(ms)")
    values, mask = numpy_with_mask(counts, np.int64)
    reference.insert_values(values.astype("datetime64[ms]"), mask=mask)
    assert typed == reference
    # The same instants in us and s are found; a count finer than ms cannot be in the column.
    assert typed.find_values(primitive("tsu:", [1_700_000_000_000_000, 1], np.int64)).tolist() == [True, False]
    assert typed.find_values(primitive("tss:", [86_400], np.int64)).tolist() == [True]
    with pytest.raises(blockbloom.Error, match="UTC"):  # a tz-aware instant on a local column: which clock?
        typed.insert_values(primitive("tsm:UTC", counts, np.int64))
    with pytest.raises(TypeError, match="time"):
        typed.insert_values(primitive("ttn", counts, np.int64))
    with pytest.raises(TypeError, match="time"):
        blockbloom.Filter(1024, type="date").find_values(primitive("ttm", [0], np.int32))
    time = blockbloom.Filter(1024, type="time(us)")
    time.insert_values(primitive("ttu", [5, None], np.int64))
    assert time.find_values(np.array([5, 6], dtype=np.int64), physical=True).tolist() == [True, False]


# Offsets and lengths no memory can hold (more than 2^57 bytes of a buffer):
# what a hostile or broken producer's capsule may carry over real buffers of a
# few rows. Before the bounds rule these were read far outside the buffers, or
# sized the answers (find_values) by the length: a MemoryError.
HOSTILE_POSITIONS = [(2**63 - 1, 1), (2**62, 1), (0, 2**61 + 1), (0, 2**60), (2**59, 2**59), (2**57, 0)]


def hostile_arrays():
    """(name, a fresh array of a few rows, a Parquet type for it) for each layout the adapter reads."""
    return [("int32", lambda: primitive("i", [1, 2, 3], np.int32), "int32"),
            ("utf8", lambda: strings(["a", "bb", None]), "string"),
            ("large_utf8", lambda: strings(["a", "bb", None], large=True), "string"),
            ("string_view", lambda: string_views(["a", "a string past twelve bytes"]), "string"),
            ("dictionary", lambda: dictionary_encoded([0, 1, None], "i", np.int32, strings(["a", "b"])), "string")]


@pytest.mark.parametrize("offset,length", HOSTILE_POSITIONS)
def test_positions_no_memory_holds_are_refused_before_anything_is_sized_or_read(offset, length):
    for name, build, type_name in hostile_arrays():
        for f in (blockbloom.Filter(1024), blockbloom.Filter(1024, type=type_name),
                  blockbloom.Filter(1024, layout="kudu")):
            for call in (f.insert_values, f.find_values):
                arrow = build()
                arrow.offset, arrow.length, arrow.null_count = offset, length, 0
                with pytest.raises(blockbloom.Error, match="Arrow format .*memory can hold") as e:
                    call(arrow)
                assert e.value.status == ARROW_MALFORMED, (name, f, call)
                assert not isinstance(e.value, MemoryError)
        assert bytes(f) == bytes(1024) or f.always_false


def test_a_dictionary_longer_than_memory_is_refused_before_its_indices_are_read():
    """The dictionary claims 2^58 int32 entries (2^60 bytes) over a buffer of two: index 5
    is below that length, so only the bounds rule keeps it from being read."""
    dictionary = primitive("i", [10, 20], np.int32)
    dictionary.length = 2**58
    for f in (blockbloom.Filter(1024), blockbloom.Filter(1024, layout="kudu")):
        for call in (f.insert_values, f.find_values):
            with pytest.raises(blockbloom.Error, match="memory can hold") as e:
                call(dictionary_encoded([0, 5], "c", np.int8, dictionary))
            assert e.value.status == ARROW_MALFORMED


def test_counts_the_spec_does_not_allow_are_refused_with_what_is_wrong():
    f = blockbloom.Filter(1024)
    arrow = primitive("i", [1, None], np.int32)
    arrow.null_count = 3
    with pytest.raises(blockbloom.Error, match="null_count") as e:
        f.find_values(arrow)
    assert e.value.status == ARROW_MALFORMED
    arrow.null_count = -1  # unknown: allowed
    assert f.find_values(arrow).tolist() == [False, False]
