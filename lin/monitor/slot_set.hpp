// A set of slots 0..m-1 (lin/monitor/timeline.hpp): insert a slot or a run of slots, and
// the first member at or past a slot, or the last at or before one.
//
// A bitset in levels: level 0 has one bit per slot; level k+1 one bit per word of level k,
// set when that word is not 0. A query reads the word of its slot on each level upwards
// until one has a member on the asked side, then descends to that member, one word per
// level: a few word reads for m up to 2^18 (three levels), one more level per factor 64.
// The points of the stack monitor (lin/monitor/points.hpp) and its slots where no value is
// certainly present (lin/monitor/stack.hpp) are sets of this kind.
// Cost: O(log_64 m) per insert and query; insert_range O((hi - lo) / 64 + log_64 m).
// Memory: about m / 63 words.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace lfcheck::lin::monitors {

class SlotSet {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  explicit SlotSet(std::uint32_t slots) : slots_(std::max<std::uint32_t>(slots, 1)) {
    std::uint64_t bits = slots_;
    do {  // level 0: one bit per slot; level k+1: one bit per word of level k that is not 0
      bits = (bits + 63) / 64;
      levels_.emplace_back(bits, 0);
    } while (bits > 1);
  }
  void insert(std::uint32_t slot) {
    for (auto& level : levels_) {
      const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
      const bool had_word = level[slot / 64] != 0;
      level[slot / 64] |= bit;
      if (had_word) return;  // the levels above already know this word is not empty
      slot /= 64;
    }
  }
  // Inserts every slot of lo..hi (nothing if lo > hi).
  void insert_range(std::uint32_t lo, std::uint32_t hi) {
    if (lo > hi || lo >= slots_) return;
    std::uint64_t a = lo, b = std::min(hi, slots_ - 1);
    for (auto& level : levels_) {  // the words of a..b on this level all hold a member now
      const std::uint64_t first = a / 64, last = b / 64;
      for (std::uint64_t w = first; w <= last; ++w) {
        const std::uint64_t from = w == first ? a % 64 : 0, to = w == last ? b % 64 : 63;
        level[w] |= (~std::uint64_t{0} >> (63 - to)) & (~std::uint64_t{0} << from);
      }
      a = first;
      b = last;
    }
  }
  // The first member >= slot, or kNone.
  std::uint32_t first_at_or_after(std::uint32_t slot) const {
    std::uint64_t at = slot;  // a bit index on level k
    for (std::size_t k = 0; k < levels_.size(); ++k) {
      const std::vector<std::uint64_t>& level = levels_[k];
      if (at / 64 >= level.size()) return kNone;
      const std::uint64_t word = level[at / 64] & (~std::uint64_t{0} << (at % 64));
      if (word != 0) {
        std::uint64_t found = (at / 64) * 64 + static_cast<std::uint64_t>(std::countr_zero(word));
        for (std::size_t j = k; j-- > 0;)  // down to the first member under it
          found = found * 64 + static_cast<std::uint64_t>(std::countr_zero(levels_[j][found]));
        return static_cast<std::uint32_t>(found);
      }
      at = at / 64 + 1;  // the next word of level k, a bit of level k + 1
    }
    return kNone;
  }
  // The last member <= slot, or kNone.
  std::uint32_t last_at_or_before(std::uint32_t slot) const {
    std::uint64_t at = std::min(slot, slots_ - 1);  // a bit index on level k
    for (std::size_t k = 0; k < levels_.size(); ++k) {
      const std::uint64_t word = levels_[k][at / 64] & (~std::uint64_t{0} >> (63 - at % 64));
      if (word != 0) {
        std::uint64_t found = (at / 64) * 64 + 63 - static_cast<std::uint64_t>(std::countl_zero(word));
        for (std::size_t j = k; j-- > 0;)  // down to the last member under it
          found = found * 64 + 63 - static_cast<std::uint64_t>(std::countl_zero(levels_[j][found]));
        return static_cast<std::uint32_t>(found);
      }
      if (at / 64 == 0) return kNone;
      at = at / 64 - 1;  // the word before on level k, a bit of level k + 1
    }
    return kNone;
  }

 private:
  std::uint32_t slots_;
  std::vector<std::vector<std::uint64_t>> levels_;
};

}  // namespace lfcheck::lin::monitors
