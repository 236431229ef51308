// The spec of liburcu's lock-free stack (Debian's liburcu-dev: urcu/lfstack.h), with
// the per-thread registration its memory reclamation requires. __cds_lfs_pop must run
// inside an RCU read-side critical section, so a thread must call
// rcu_register_thread() before its first pop and rcu_unregister_thread() before it
// ends (urcu_memb_* in the memb flavour used here), and a popped node is freed only
// after a grace period (synchronize_rcu()): here each thread keeps what it popped and
// frees it in thread_end, after one synchronize_rcu (a pop stays short, so long
// histories stay checkable). The spec's hooks do
// the registration on every thread lfcheck starts (harness/lin/spec_hooks.hpp), and
// the Subject refuses, loudly, a call from a thread that is not registered: the rule
// liburcu leaves to its users (an unregistered reader is silently not waited for).
// LFCHECK_EXAMPLE_SKIP_REGISTRATION=1 skips the registration of the worker threads:
// the test that the rule bites (urcu_lfstack.unregistered_fails).
// liburcu is built without TSan, so TSan cannot see that its push orders the node's
// value before the pop that returns it; the Subject says so with lfcheck's annotations.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <urcu/urcu-memb.h>  // urcu_memb_register_thread, _read_lock, _synchronize_rcu
#include <urcu/lfstack.h>
#include <rapidcheck.h>
#include <lfcheck/specs/spec.hpp>
#include <lfcheck/sync/tsan_annotations.hpp>
struct UrcuLfstackSpec {
  static constexpr const char* name = "urcu_lfstack";
  static constexpr const char* long_histories_off =  // measured: over 60 s per 10,000-call history under TSan
      "a 10,000-call history of this unbounded stack (values 1..9) is beyond the checker's 60 s budget under TSan";
  enum class Op { push, pop };
  struct Call { Op op; int value; };
  struct Result { bool ok; int value; bool operator==(const Result&) const = default; };
  using State = std::vector<int>;  // top last
  static State initial() { return {}; }
  static Result apply(State& s, Call c) {
    if (c.op == Op::push) return s.push_back(c.value), Result{true, 0};
    if (s.empty()) return {false, 0};
    const int v = s.back(); s.pop_back(); return {true, v};
  }
  static std::string show(Call c) { return c.op == Op::push ? "push(" + std::to_string(c.value) + ")" : "pop()"; }
  static std::string show(Result r) { return r.ok ? (r.value ? std::to_string(r.value) : "true") : "empty"; }
  static rc::Gen<Call> gen_call(lfcheck::spec::Slot) {
    return rc::gen::oneOf(rc::gen::construct<Call>(rc::gen::just(Op::push), rc::gen::inRange(1, 10)),
                          rc::gen::just(Call{Op::pop, 0}));
  }
  static inline thread_local bool registered = false;
  static void thread_begin(unsigned t) {
    if (t != lfcheck::spec::kDriverThread && std::getenv("LFCHECK_EXAMPLE_SKIP_REGISTRATION")) return;
    urcu_memb_register_thread();
    registered = true;
  }
  struct Node { cds_lfs_node link; int value; };
  static inline thread_local std::vector<Node*> retired;  // popped by this thread, not yet freed
  static void thread_end(unsigned) {
    urcu_memb_synchronize_rcu();  // no pop that may still read a retired node's link is left
    for (Node* n : retired) delete n;
    retired.clear();
    if (registered) urcu_memb_unregister_thread();
    registered = false;
  }
  struct Subject {
    cds_lfs_stack stack;
    Subject() { cds_lfs_init(&stack); }
    cds_lfs_stack_ptr_t handle() { cds_lfs_stack_ptr_t p; p.s = &stack; return p; }  // C's transparent union
    ~Subject() {  // quiescent: no other popper, so no read-side section is needed
      while (cds_lfs_node* n = __cds_lfs_pop(handle())) delete caa_container_of(n, Node, link);
      cds_lfs_destroy(&stack);
    }
    Result run(Call c, unsigned) {
      if (!registered) std::fprintf(stderr, "urcu_lfstack: a call from a thread not registered with RCU\n"), std::abort();
      if (c.op == Op::push) {
        Node* n = new Node{{}, c.value};
        cds_lfs_node_init(&n->link);
        lfcheck::tsan::happens_before(n);  // liburcu's push publishes *n (TSan cannot see it)
        cds_lfs_push(handle(), &n->link);
        return {true, 0};
      }
      urcu_memb_read_lock();
      cds_lfs_node* l = __cds_lfs_pop(handle());
      urcu_memb_read_unlock();
      if (!l) return {false, 0};
      Node* n = caa_container_of(l, Node, link);
      lfcheck::tsan::happens_after(n);  // pairs with the push's happens_before
      retired.push_back(n);  // freed at this thread's end, after a grace period
      return {true, n->value};
    }
  };
};
