// NativeResource — a small stand-in for the Looper's native resource, real
// enough that every layer can see it misused:
//
//   * heap memory: a buffer of kWords words allocated with Sync::create_array and
//     filled with a known pattern. destroy scrubs it (plain writes) and frees it with
//     Sync::destroy_array. Under Relacy a use that is not ordered before the destroy
//     is a DATA RACE on the scrub, a use after it is ACCESS TO FREED MEMORY, a second
//     destroy is a double free and a missing one a leak. Under TSan the same use is a
//     race with the scrub or the free; under ASan a heap-use-after-free or a leak.
//   * an OS handle, in StdSync builds only (Sync::backend_name == "std"): an eventfd.
//     Every use writes 1 to it; the destructor reads the total back and closes it, so
//     a use that reached a closed (or re-used) descriptor shows as a failed write or a
//     total that does not match the number of uses. Relacy builds never make a
//     system call: the model path is pure.
//
// Thread safety: use() may be called by any number of threads at once (reads of
// the immutable buffer, a relaxed counter, eventfd writes). The constructor and
// destructor are not concurrent with anything — RefcountedShutdown guarantees it.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <sys/eventfd.h>
#include <unistd.h>

namespace lfcheck {

template <class Sync, std::size_t kWords = 2>
class NativeResource {
 public:
  // Whether this build owns a real OS handle (never under the model checker).
  static constexpr bool kHasEventfd = std::string_view(Sync::backend_name) == "std";

  // What the destructor found, for tests: written once, by the destroying thread,
  // into a record the test owns (it outlives the resource).
  struct CloseReport {
    unsigned closes = 0;        // destructor runs that saw this report (must end as 1)
    std::uint64_t uses = 0;     // use() calls over the resource's life
    std::uint64_t os_total = 0; // what the eventfd counted (== uses when kHasEventfd)
    bool os_ok = true;          // every eventfd call succeeded
  };

  NativeResource() : buffer_(Sync::template create_array<Word>(kWords)) {
    Word* b = buffer_.load();
    for (std::size_t i = 0; i < kWords; ++i) b[i].store(pattern(i));
    if constexpr (kHasEventfd) {
      fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
      Sync::check(fd_ >= 0, "NativeResource: eventfd() failed");
    }
  }

  ~NativeResource() {
    Word* b = buffer_.load();
    // Scrub before freeing, as a resource holding secrets would: plain writes, so
    // a use not ordered before this destructor is a data race for every checker.
    for (std::size_t i = 0; i < kWords; ++i) b[i].store(0);
    // Keep the scrub: without this the compiler drops the stores as dead (the
    // buffer is freed next), and TSan would see the race only inside free().
    asm volatile("" : : "r"(b) : "memory");
    Sync::destroy_array(b);
    std::uint64_t os_total = 0;
    bool os_ok = os_ok_.load(std::memory_order_relaxed);  // quiescent: see uses_ below
    if constexpr (kHasEventfd) {
      std::uint64_t v = 0;
      const ssize_t n = ::read(fd_, &v, sizeof v);
      if (n == static_cast<ssize_t>(sizeof v)) os_total = v;
      else if (n < 0 && errno == EAGAIN) os_total = 0;  // counter was 0: nothing written
      else os_ok = false;
      if (::close(fd_) != 0) os_ok = false;
    }
    if (report_) {
      report_->closes += 1;
      // Relaxed: the destroying thread is ordered after every use by the
      // refcount (release decrements, the owner's acquire), not by this counter.
      report_->uses = uses_.load(std::memory_order_relaxed);
      report_->os_total = kHasEventfd ? os_total : report_->uses;
      report_->os_ok = os_ok;
    }
  }

  NativeResource(const NativeResource&) = delete;
  NativeResource& operator=(const NativeResource&) = delete;

  // Set before the resource is shared (single-threaded set-up).
  void set_close_report(CloseReport* report) { report_ = report; }

  // One use by a reference holder. Returns false if the resource is not intact
  // (wrong contents, or the OS handle refused the write) — never while a reference
  // is held on a correct RefcountedShutdown.
  bool use() {
    Word* b = buffer_.load();
    bool ok = true;
    for (std::size_t i = 0; i < kWords; ++i) ok = ok && b[i].load() == pattern(i);
    // Relaxed: a statistic; the destructor reads it after the refcount ordered
    // every use before the destroy.
    uses_.fetch_add(1, std::memory_order_relaxed);
    if constexpr (kHasEventfd) {
      const std::uint64_t one = 1;
      if (::write(fd_, &one, sizeof one) != static_cast<ssize_t>(sizeof one)) {
        // Relaxed: a flag read only by the destructor (ordered as above).
        os_ok_.store(false, std::memory_order_relaxed);
        ok = false;
      }
    }
    return ok;
  }

 private:
  using Word = typename Sync::template cell<std::uint64_t>;
  static constexpr std::uint64_t pattern(std::size_t i) { return 0x5eed5eed00000000ull + i; }

  typename Sync::template cell<Word*> buffer_;
  typename Sync::template atomic<std::uint64_t> uses_{0};
  typename Sync::template atomic<bool> os_ok_{true};
  int fd_ = -1;
  CloseReport* report_ = nullptr;
};

}  // namespace lfcheck
