// How far a tree search (Relacy's context-bound or full search) has got, from
// the branching it has seen: the estimate behind the bound/full searches'
// progress line, published after every execution.
//
// Relacy's tree schedulers walk their decision tree depth first; the stack of
// the current path (protected `stree_`: per decision, how many branches and
// which one this execution took) is all they know. After a leaf, the part of
// the tree already explored is, if every sibling subtree were as big as the one
// being explored (the only assumption the branching seen so far supports),
//
//   f = sum_j (index_j / count_j) * prod_{i<j} 1/count_i  +  prod_j 1/count_j
//
// (the path read as a fraction in mixed radix, plus the leaf itself). f is
// monotone along the search and reaches 1 exactly at its last leaf; done / f is
// then an estimate of the total number of executions. It is an estimate and is
// printed as one: subtrees are not alike (later branches of a context-bound
// search have fewer switches left, so they are usually smaller), and early in a
// search f says little.
//
// estimating_scheduler<Tree> is Tree (context_bound_scheduler<N> or
// full_search_scheduler<N>) with one more step in iteration_end(), which
// rl::context_impl calls on the scheduler type it was given; it hides the base's
// function of the same name and then calls it. Nothing else changes: the
// schedules explored are exactly Tree's.
//
// Cost: O(depth of the current path) per execution.
#pragma once

#include <cstddef>

#include "sync/relacy_sync.hpp"  // Relacy, with its macros put away

namespace lfcheck {

// The explored fraction after the latest execution of the current tree search
// (one simulation at a time per process).
inline double& tree_search_fraction() {
  static double fraction = 0;
  return fraction;
}

template <class Tree>
class estimating_scheduler : public Tree {
 public:
  using Tree::Tree;

  bool iteration_end() {
    double fraction = 0, weight = 1;
    for (std::size_t i = 0; i != this->stree_.size(); ++i) {
      const auto& node = this->stree_[i];
      fraction += weight * node.index_ / node.count_;
      weight /= node.count_;
    }
    tree_search_fraction() = fraction + weight;
    return Tree::iteration_end();
  }
};

}  // namespace lfcheck
