package llamacpp

import "math/bits"

// cxxSort sorts a in place as libstdc++'s std::sort does, which llama.cpp's sort and
// dictsort call: introsort (median-of-three quicksort down to runs of 16, heapsort past
// a depth of 2 log2 n) and a final insertion sort. It is not stable, and llama.cpp's
// comparisons leave some pairs unordered (a bool and a number, a list and anything), so
// only its own steps give llama.cpp's order. Its unguarded scans are bounded here,
// where a comparison that is no strict weak order would make C++ read past the range.
func cxxSort[T any](a []T, less func(x, y T) bool) {
	if len(a) < 2 {
		return
	}
	s := cxxSorter[T]{a, less}
	s.introsortLoop(0, len(a), 2*(bits.Len(uint(len(a)))-1))
	s.finalInsertionSort(0, len(a))
}

// cxxThreshold is libstdc++'s _S_threshold: runs this short are left to insertion sort.
const cxxThreshold = 16

type cxxSorter[T any] struct {
	a    []T
	less func(x, y T) bool
}

func (s cxxSorter[T]) lessAt(i, j int) bool { return s.less(s.a[i], s.a[j]) }

func (s cxxSorter[T]) swap(i, j int) { s.a[i], s.a[j] = s.a[j], s.a[i] }

// introsortLoop is std::__introsort_loop.
func (s cxxSorter[T]) introsortLoop(first, last, depth int) {
	for last-first > cxxThreshold {
		if depth == 0 {
			s.heapSort(first, last)
			return
		}
		depth--
		cut := s.partitionPivot(first, last)
		s.introsortLoop(cut, last, depth)
		last = cut
	}
}

// partitionPivot is std::__unguarded_partition_pivot: the median of the second, middle
// and last items moved to first, and the rest partitioned around it.
func (s cxxSorter[T]) partitionPivot(first, last int) int {
	mid := first + (last-first)/2
	s.moveMedianToFirst(first, first+1, mid, last-1)
	return s.partition(first+1, last, first)
}

// moveMedianToFirst is std::__move_median_to_first.
func (s cxxSorter[T]) moveMedianToFirst(result, x, y, z int) {
	switch {
	case s.lessAt(x, y):
		switch {
		case s.lessAt(y, z):
			s.swap(result, y)
		case s.lessAt(x, z):
			s.swap(result, z)
		default:
			s.swap(result, x)
		}
	case s.lessAt(x, z):
		s.swap(result, x)
	case s.lessAt(y, z):
		s.swap(result, z)
	default:
		s.swap(result, y)
	}
}

// partition is std::__unguarded_partition around the item at pivot.
func (s cxxSorter[T]) partition(first, last, pivot int) int {
	lo, hi := first, last
	for {
		for first < hi-1 && s.lessAt(first, pivot) {
			first++
		}
		last--
		for last >= lo && s.lessAt(pivot, last) {
			last--
		}
		if first >= last {
			return first
		}
		s.swap(first, last)
		first++
	}
}

// finalInsertionSort is std::__final_insertion_sort.
func (s cxxSorter[T]) finalInsertionSort(first, last int) {
	if last-first <= cxxThreshold {
		s.insertionSort(first, last)
		return
	}
	s.insertionSort(first, first+cxxThreshold)
	for i := first + cxxThreshold; i < last; i++ {
		s.linearInsert(first, i)
	}
}

// insertionSort is std::__insertion_sort: an item below the first goes to the front
// at once, any other moves back past the items above it.
func (s cxxSorter[T]) insertionSort(first, last int) {
	for i := first + 1; i < last; i++ {
		if s.lessAt(i, first) {
			v := s.a[i]
			copy(s.a[first+1:i+1], s.a[first:i])
			s.a[first] = v
			continue
		}
		s.linearInsert(first, i)
	}
}

// linearInsert is std::__unguarded_linear_insert of the item at i (not below first).
func (s cxxSorter[T]) linearInsert(first, i int) {
	v := s.a[i]
	for i > first && s.less(v, s.a[i-1]) {
		s.a[i] = s.a[i-1]
		i--
	}
	s.a[i] = v
}

// heapSort is std::__partial_sort of the whole range: std::__make_heap, then
// std::__sort_heap.
func (s cxxSorter[T]) heapSort(first, last int) {
	n := last - first
	for parent := (n - 2) / 2; parent >= 0; parent-- {
		s.adjustHeap(first, parent, n, s.a[first+parent])
	}
	for last-first > 1 {
		last--
		v := s.a[last]
		s.a[last] = s.a[first]
		s.adjustHeap(first, 0, last-first, v)
	}
}

// adjustHeap is std::__adjust_heap: the hole at hole sifted down to a leaf, then v
// pushed up from there (std::__push_heap).
func (s cxxSorter[T]) adjustHeap(first, hole, n int, v T) {
	top, child := hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if s.lessAt(first+child, first+child-1) {
			child--
		}
		s.a[first+hole] = s.a[first+child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		s.a[first+hole] = s.a[first+child-1]
		hole = child - 1
	}
	for parent := (hole - 1) / 2; hole > top && s.less(s.a[first+parent], v); parent = (hole - 1) / 2 {
		s.a[first+hole] = s.a[first+parent]
		hole = parent
	}
	s.a[first+hole] = v
}
