// State each thread keeps for the driver (its current context), made so it
// outlives the program's own exit handlers: a C++ thread_local object is
// destroyed when exit() starts, before handlers that still release or
// destroy contexts (piglit's do). A thread that ends frees its state; the
// main thread's lives until the process is gone.
#pragma once

#include <pthread.h>

namespace icd {

template <typename T>
T& per_thread() {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    pthread_key_create(&k, [](void* state) { delete static_cast<T*>(state); });
    return k;
  }();
  thread_local T* state = nullptr;  // trivially destructible
  if (state == nullptr) {
    state = new T();
    pthread_setspecific(key, state);
  }
  return *state;
}

}  // namespace icd
