package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in the buffer.
const logFlushEvery = 100 * time.Millisecond

// batchedLog gathers the server's log lines and writes them in batches: a
// line per request, at tens of thousands of requests a second, would be as
// many system calls, a tenth of the work of a small read. A line reaches
// the output within logFlushEvery, at once when the buffer fills, and
// before serve returns.
type batchedLog struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done sync.WaitGroup
}

func newBatchedLog(w io.Writer) *batchedLog {
	b := &batchedLog{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{})}
	b.done.Go(func() {
		tick := time.NewTicker(logFlushEvery)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
				b.flush()
			}
		}
	})
	return b
}

func (b *batchedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *batchedLog) flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Flush()
}

// Close stops the flushing and writes what is left.
func (b *batchedLog) Close() error {
	close(b.stop)
	b.done.Wait()
	return b.flush()
}
