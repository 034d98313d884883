// free_storage.h — (internal) empty a container and give its memory back.
//
// `v = {}` reads as "empty it and free it", but for std::vector, std::string and the unordered
// containers it picks their initializer-list assignment, which empties the container and keeps
// its capacity: the memory stays held. The tables that are given back as soon as no later step
// needs them (annotate's, the model's rows, the name pool's index) go through this instead.
// What it is not: a way to shrink a container that is still used (shrink_to_fit).
#pragma once

namespace calltree::detail {

template <class Container>
void free_storage(Container& c) {
  c = Container();
}

}  // namespace calltree::detail
