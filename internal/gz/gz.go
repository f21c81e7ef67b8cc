// Package gz compresses answers with gzip, reusing compressors: one
// allocates about a megabyte of state, more than most answers it makes.
package gz

import (
	"bytes"
	"compress/gzip"
	"sync"
)

// Tight compresses b as tightly as gzip can, for assets compressed once,
// or is nil when that saves nothing worth having.
func Tight(b []byte) []byte { return gzipLevel(b, gzip.BestCompression) }

// Fast compresses an answer built while a reader waits: the fastest
// level is about eight times quicker than the tightest on a 2 MB page list
// and a third larger, the trade web servers make for dynamic answers.
func Fast(b []byte) []byte { return gzipLevel(b, gzip.BestSpeed) }

// gzipWriters keep writers of each level for reuse: a new one allocates
// about a megabyte of compressor state, more than most answers it makes.
var gzipWriters = map[int]*sync.Pool{gzip.BestSpeed: newGzipPool(gzip.BestSpeed), gzip.BestCompression: newGzipPool(gzip.BestCompression)}

func newGzipPool(level int) *sync.Pool {
	return &sync.Pool{New: func() any {
		zw, _ := gzip.NewWriterLevel(nil, level)
		return zw
	}}
}

func gzipLevel(b []byte, level int) []byte {
	if len(b) < 256 {
		return nil
	}
	var out bytes.Buffer
	out.Grow(len(b) / 3)
	pool := gzipWriters[level]
	zw := pool.Get().(*gzip.Writer)
	zw.Reset(&out)
	_, _ = zw.Write(b)
	_ = zw.Close()
	zw.Reset(nil)
	pool.Put(zw)
	if out.Len() >= len(b) {
		return nil
	}
	return out.Bytes()
}
