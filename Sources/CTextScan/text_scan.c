#include "text_scan.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The words of the bytes from `index` to `count`, one byte at a time; `previous` tells whether
/// the byte before `index` is part of a word.
static size_t count_words_bytewise(const unsigned char *bytes, size_t index, size_t count, unsigned previous) {
    size_t words = 0;
    for (; index < count; index++) {
        const unsigned char byte = bytes[index];
        const unsigned word = byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r';
        words += word & ~previous & 1u;
        previous = word;
    }
    return words;
}

size_t tagflow_count_words_portable(const void *text, size_t count) {
    const unsigned char *bytes = (const unsigned char *)text;
    // Eight bytes in a 64-bit integer: `equal` sets the high bit of each byte that equals `byte`
    // (and no other bit), without carries between bytes.
    const uint64_t high_bits = 0x8080808080808080ull;
    const uint64_t low_bits = 0x7F7F7F7F7F7F7F7Full;
#define TAGFLOW_EQUAL(value, byte)                                                                 \
    (~(((((value) ^ ((uint64_t)(byte) * 0x0101010101010101ull)) & low_bits) + low_bits) |        \
       ((value) ^ ((uint64_t)(byte) * 0x0101010101010101ull)) | low_bits))
    size_t words = 0;
    size_t index = 0;
    uint64_t previous = 0;  // the high bit of the byte before, in bit 7
    for (; index + 8 <= count; index += 8) {
        uint64_t value;
        memcpy(&value, bytes + index, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        value = __builtin_bswap64(value);
#endif
        const uint64_t spaces = TAGFLOW_EQUAL(value, ' ') | TAGFLOW_EQUAL(value, '\t') |
                                TAGFLOW_EQUAL(value, '\n') | TAGFLOW_EQUAL(value, '\r');
        const uint64_t is_word = ~spaces & high_bits;
        const uint64_t starts = is_word & ~((is_word << 8) | previous);
        words += (size_t)__builtin_popcountll(starts);
        previous = (is_word >> 56) & 0x80;
    }
#undef TAGFLOW_EQUAL
    return words + count_words_bytewise(bytes, index, count, previous != 0);
}

#if defined(__SSE2__)
/// 0xFF in each byte of `block` that is part of a word, 0 in the others.
static inline __m128i word_bytes(__m128i block) {
    const __m128i spaces = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\t'))),
        _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\r'))));
    return _mm_andnot_si128(spaces, _mm_set1_epi8((char)0xFF));
}

/// The sum of the 16 byte counters in `counts`.
static inline size_t sum_of_bytes(__m128i counts) {
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());  // two 64-bit sums
    return (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
}
#endif

size_t tagflow_count_words(const void *text, size_t count) {
#if defined(__SSE2__)
    // Byte by byte in vectors, with no population count (x86-64 processors before 2008 lack the
    // instruction, so the compiler may not use it, and its replacement took most of the time): a
    // word starts at a word byte whose previous byte is not one, and each lane counts the words
    // starting in it, in a byte flushed into `words` before it can overflow.
    const unsigned char *bytes = (const unsigned char *)text;
    size_t words = 0;
    size_t index = 0;
    __m128i counts = _mm_setzero_si128();
    unsigned blocks_counted = 0;
    __m128i previous = _mm_setzero_si128();  // the block before, as word_bytes gave it
    while (index < count) {
        __m128i block;
        if (index + 16 <= count) {
            block = _mm_loadu_si128((const __m128i *)(bytes + index));
        } else {
            // The last bytes, in a block of their own; the bytes after them are spaces.
            unsigned char last[16];
            memset(last, ' ', sizeof last);
            memcpy(last, bytes + index, count - index);
            block = _mm_loadu_si128((const __m128i *)last);
        }
        const __m128i is_word = word_bytes(block);
        // Each byte's previous byte: the block moved up one byte, the last byte of the block before
        // moved into the first.
        const __m128i before = _mm_or_si128(_mm_slli_si128(is_word, 1), _mm_srli_si128(previous, 15));
        counts = _mm_sub_epi8(counts, _mm_andnot_si128(before, is_word));  // 0xFF is -1
        previous = is_word;
        index += 16;
        if (++blocks_counted == 255) {
            words += sum_of_bytes(counts);
            counts = _mm_setzero_si128();
            blocks_counted = 0;
        }
    }
    return words + sum_of_bytes(counts);
#else
    return tagflow_count_words_portable(text, count);
#endif
}

size_t tagflow_find_html_special_portable(const void *text, size_t count) {
    const unsigned char *bytes = (const unsigned char *)text;
    for (size_t index = 0; index < count; index++) {
        switch (bytes[index]) {
        case '&':
        case '<':
        case '>':
        case '"':
        case '\'':
            return index;
        default:
            break;
        }
    }
    return count;
}

#if defined(__SSE2__)
/// Bit i is set when byte i of `block` is one HTML escaping replaces.
static inline unsigned html_special_bytes(__m128i block) {
    const __m128i found = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('&')), _mm_cmpeq_epi8(block, _mm_set1_epi8('<'))),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('>')), _mm_cmpeq_epi8(block, _mm_set1_epi8('"'))),
                     _mm_cmpeq_epi8(block, _mm_set1_epi8('\''))));
    return (unsigned)_mm_movemask_epi8(found);
}
#endif

size_t tagflow_find_html_special(const void *text, size_t count) {
#if defined(__SSE2__)
    const unsigned char *bytes = (const unsigned char *)text;
    size_t index = 0;
    for (; index + 16 <= count; index += 16) {
        const unsigned found = html_special_bytes(_mm_loadu_si128((const __m128i *)(bytes + index)));
        if (found)
            return index + (size_t)__builtin_ctz(found);
    }
    if (index < count) {
        // The last bytes, in a block of their own; the zero bytes after them are not special.
        unsigned char last[16] = {0};
        memcpy(last, bytes + index, count - index);
        const unsigned found = html_special_bytes(_mm_loadu_si128((const __m128i *)last));
        if (found)
            return index + (size_t)__builtin_ctz(found);
    }
    return count;
#else
    return tagflow_find_html_special_portable(text, count);
#endif
}

size_t tagflow_find_pair_portable(const void *text, size_t count, unsigned char first, unsigned char second) {
    const unsigned char *bytes = (const unsigned char *)text;
    for (size_t index = 0; index + 1 < count; index++) {
        if (bytes[index] == first && bytes[index + 1] == second)
            return index;
    }
    return count;
}

size_t tagflow_find_pair(const void *text, size_t count, unsigned char first, unsigned char second) {
#if defined(__SSE2__)
    const unsigned char *bytes = (const unsigned char *)text;
    const __m128i firsts = _mm_set1_epi8((char)first);
    const __m128i seconds = _mm_set1_epi8((char)second);
    size_t index = 0;
    // Each block's pairs start at its 16 bytes; the second bytes are the 16 from one further on.
    for (; index + 17 <= count; index += 16) {
        const __m128i here = _mm_loadu_si128((const __m128i *)(bytes + index));
        const __m128i next = _mm_loadu_si128((const __m128i *)(bytes + index + 1));
        const unsigned found = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(here, firsts), _mm_cmpeq_epi8(next, seconds)));
        if (found)
            return index + (size_t)__builtin_ctz(found);
    }
    const size_t rest = tagflow_find_pair_portable(bytes + index, count - index, first, second);
    return index + rest;
#else
    return tagflow_find_pair_portable(text, count, first, second);
#endif
}
