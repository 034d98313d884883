// A small program for calltree's pprof importer tests: a few hot functions, recursion
// (direct and mutual), an inlinable function, and allocations, profiled with runtime/pprof.
package main

import (
	"flag"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink uint64
var keep [][]byte

// small is inlined into its callers by the Go compiler (go build -gcflags=-m says so).
func small(x uint64) uint64 { return x*2654435761 ^ (x >> 13) }

func hotA(n int) uint64 {
	var s uint64
	for i := 0; i < n; i++ {
		s += small(uint64(i))
	}
	return s
}

func hotB(n int) uint64 {
	var s uint64
	for i := 0; i < n; i++ {
		s ^= uint64(i) * 31
		s = s<<1 | s>>63
	}
	return s
}

// fib recurses directly.
func fib(n int) uint64 {
	if n < 2 {
		return uint64(n) + small(uint64(n))&1
	}
	return fib(n-1) + fib(n-2)
}

// even and odd recurse through each other, doing work at each level.
func even(n int) uint64 {
	if n == 0 {
		return hotB(2000)
	}
	return odd(n-1) + hotA(500)
}

func odd(n int) uint64 {
	if n == 0 {
		return hotA(2000)
	}
	return even(n-1) + hotB(500)
}

func allocate(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 1024+i%4096))
	}
}

func work(deadline time.Time) {
	for time.Now().Before(deadline) {
		sink += hotA(200000)
		sink += hotB(200000)
		sink += fib(22)
		sink += even(40)
		allocate(50)
		if len(keep) > 20000 {
			keep = keep[:0]
		}
	}
}

func main() {
	cpu := flag.String("cpu", "cpu.pb.gz", "CPU profile")
	heap := flag.String("heap", "heap.pb.gz", "heap profile")
	secs := flag.Float64("seconds", 2, "run time")
	flag.Parse()
	runtime.MemProfileRate = 64 * 1024
	f, err := os.Create(*cpu)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	work(time.Now().Add(time.Duration(*secs * float64(time.Second))))
	pprof.StopCPUProfile()
	f.Close()
	h, err := os.Create(*heap)
	if err != nil {
		panic(err)
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(h); err != nil {
		panic(err)
	}
	h.Close()
	println(sink)
}
