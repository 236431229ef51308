// The spec of liburcu's lock-free stack (Debian's liburcu-dev: urcu/lfstack.h), with
// the per-thread registration its memory reclamation requires. __cds_lfs_pop must run
// inside an RCU read-side critical section, so a thread must call
// rcu_register_thread() before its first pop and rcu_unregister_thread() before it
// ends (urcu_memb_* in the memb flavour used here), and a popped node is freed only
// after a grace period (synchronize_rcu()): here each thread keeps what it popped and
// frees it after a synchronize_rcu, every 4,096 pops and in thread_end (a pop stays
// short, and a long history keeps few nodes). The spec says it is a stack
// (lfcheck/lin/collection.hpp), so its long histories (100,000 calls, every pushed value
// distinct) are checked by the stack monitor, not the search. The spec's hooks do
// the registration on every thread lfcheck starts (harness/lin/spec_hooks.hpp), and
// the Subject refuses, loudly, a call from a thread that is not registered: the rule
// liburcu leaves to its users (an unregistered reader is silently not waited for).
// LFCHECK_EXAMPLE_SKIP_REGISTRATION=1 skips the registration of the worker threads:
// the test that the rule bites (urcu_lfstack.unregistered_fails).
// liburcu is built without TSan, so TSan cannot see that its push orders the node's
// value before the pop that returns it; the Subject says so with lfcheck's annotations.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <urcu/urcu-memb.h>  // urcu_memb_register_thread, _read_lock, _synchronize_rcu
#include <urcu/lfstack.h>
#include <rapidcheck.h>
#include <lfcheck/lin/collection.hpp>
#include <lfcheck/specs/spec.hpp>
#include <lfcheck/sync/tsan_annotations.hpp>
struct UrcuLfstackSpec {
  static constexpr const char* name = "urcu_lfstack";
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
  static constexpr lfcheck::lin::Collection collection = lfcheck::lin::Collection::stack;
  static lfcheck::lin::Abstract abstract(Call c, Result r) {  // what the call did, in a stack's words
    using A = lfcheck::lin::Abstract;
    if (c.op == Op::push) return {A::insert, std::uint64_t(c.value)};
    return r.ok ? A{A::remove, std::uint64_t(r.value)} : A{A::remove_empty, 0};
  }
  static Call with_value(Call c, std::uint32_t v) {  // the same call, pushing v
    if (c.op == Op::push) c.value = int(v);
    return c;
  }
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
  static void free_retired() {  // outside a read-side section
    urcu_memb_synchronize_rcu();  // no pop that may still read a retired node's link is left
    for (Node* n : retired) delete n;
    retired.clear();
  }
  static void thread_end(unsigned) {
    free_retired();
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
      const int value = n->value;
      retired.push_back(n);  // freed after a grace period
      if (retired.size() == 4096) free_retired();
      return {true, value};
    }
  };
};
