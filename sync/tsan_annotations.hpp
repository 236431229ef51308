// Telling ThreadSanitizer about synchronization it cannot see.
//
// TSan sees the synchronization of code compiled with -fsanitize=thread. A library
// built without it (a Debian package's shared object) synchronizes its users
// through atomics, fences or system calls TSan never observes, so two accesses
// in YOUR code that the library orders look unordered, and TSan reports a race
// that is not one. Where the library documents the order (a push happens before
// the pop that returns the node), a spec's Subject can state it:
//
//   lfcheck::tsan::happens_before(node);   // right before the library call that publishes node
//   lfcheck::tsan::happens_after(node);    // right after the library call that hands node over
//
// The pair becomes TSan's release/acquire on the address (__tsan_release /
// __tsan_acquire); outside a TSan build both are empty inline functions. It states
// one order on one address, the one the library documents. Unlike a suppression it
// leaves every other access checked. If the library does not keep that order, TSan
// will not say so any more; ASan and the linearizability check still see what the
// library returns. The alternatives
// (build the library with TSan; rely on ASan + lin for it) are in
// docs/your-structure.md, "Checking a library you did not write".
#pragma once

#if defined(__SANITIZE_THREAD__)
#define LFCHECK_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LFCHECK_TSAN_BUILD 1
#endif
#endif

#ifdef LFCHECK_TSAN_BUILD
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace lfcheck::tsan {

// Whether these annotations reach TSan in this build.
#ifdef LFCHECK_TSAN_BUILD
inline constexpr bool active = true;
#else
inline constexpr bool active = false;
#endif

// Everything this thread did before is ordered before what a thread does after
// its happens_after(addr) that follows this call.
inline void happens_before(const void* addr) noexcept {
#ifdef LFCHECK_TSAN_BUILD
  __tsan_release(const_cast<void*>(addr));
#else
  (void)addr;
#endif
}

// Pairs with every earlier happens_before(addr).
inline void happens_after(const void* addr) noexcept {
#ifdef LFCHECK_TSAN_BUILD
  __tsan_acquire(const_cast<void*>(addr));
#else
  (void)addr;
#endif
}

}  // namespace lfcheck::tsan
