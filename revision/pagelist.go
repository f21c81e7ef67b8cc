package revision

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"sync"

	"github.com/quiredocs/quire/wire"
)

// The page list of a new revision is mostly the list of the revision
// before: a merge that edits one page changes one top-level section of a
// thousand-page list. So a markdown-format list is put together from runs
// of top-level pages (Run), each kept encoded and deflated by what
// its bytes are made of, and only the runs a commit changed are encoded and
// compressed again. The gzipped answer is the deflated runs end to end in
// one gzip member: each run is compressed on its own and ends with a sync
// flush, so it is whole bytes that refer to nothing before it.
//
// The document format is built whole, as before: a page's document links
// to other pages, so its bytes depend on more than its subtree.

// listRunPages is about how many pages a run holds: runs end after the
// top-level page that brings them to this many, so that an edit leaves the
// other runs as they were.
const listRunPages = 32

// Deflated forms of the list's fixed parts; the close is the stream's final
// block.
var (
	listOpen, listComma, listClose = []byte(`{"pages":[`), []byte(","), []byte("]}\n")
	listOpenZ                      = deflated(listOpen, false)
	listCommaZ                     = deflated(listComma, false)
	listCloseZ                     = deflated(listClose, true)
)

var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// deflated compresses b on its own: ended with a sync flush, or with the
// final block when last.
func deflated(b []byte, last bool) []byte {
	var out bytes.Buffer
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&out)
	w.Write(b) // writes to a bytes.Buffer do not fail
	if last {
		w.Close()
	} else {
		w.Flush()
	}
	return out.Bytes()
}

// pageListRuns builds the markdown-format page list of v from its runs,
// plain and gzipped; ok is false when v's tree is not a stored one, whose
// pages have no hash to key runs by.
func (r *Reader) pageListRuns(ctx context.Context, l wire.Links, v *View, f Format) (_ *Answer, ok bool, err error) {
	ids := v.Tree.Root
	var runs []*Run
	for start := 0; start < len(ids); {
		end, key, ok := listRunAt(v, f, ids, start)
		if !ok {
			return nil, false, nil
		}
		run, hit := r.runs.Get(key)
		if !hit {
			if run, err = r.encodeListRun(ctx, l, v, f, ids[start:end]); err != nil {
				return nil, true, err
			}
			r.keepRun(key, run)
		}
		runs = append(runs, run)
		start = end
	}
	// The answer is the runs themselves, in parts: lists run to megabytes,
	// and copying them for each revision was most of what the server
	// allocated.
	body := make([][]byte, 0, 2*len(runs)+1)
	z := make([][]byte, 0, 2*len(runs)+3)
	body, z = append(body, listOpen), append(z, gzipHeader, listOpenZ)
	crc := crc32.Update(0, crc32.IEEETable, listOpen)
	for i, run := range runs {
		if i > 0 {
			body, z = append(body, listComma), append(z, listCommaZ)
			crc = crc32.Update(crc, crc32.IEEETable, listComma)
		}
		body, z = append(body, run.JSON), append(z, run.Z)
		crc = crc32.Update(crc, crc32.IEEETable, run.JSON)
	}
	body = append(body, listClose)
	crc = crc32.Update(crc, crc32.IEEETable, listClose)
	trailer := binary.LittleEndian.AppendUint32(nil, crc)
	trailer = binary.LittleEndian.AppendUint32(trailer, uint32(PartsSize(body)))
	z = append(z, listCloseZ, trailer)
	return NewAnswerGzipped(body, z), true, nil
}

// gzipHeader starts a gzip member (RFC 1952) with no name, time or extra
// fields, of an unknown system.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// listRunAt finds the run of ids that begins at start and the key of its
// bytes: the space (in each page's URL), the format, and what each of its
// pages' answers is made of (writeSubtree).
func listRunAt(v *View, f Format, ids []string, start int) (end int, key [sha256.Size]byte, ok bool) {
	h := sha256.New()
	h.Write([]byte(v.Space.ID))
	h.Write([]byte{0, boolByte(f.Metadata)})
	pages := 0
	for end = start; end < len(ids) && pages < listRunPages; end++ {
		n, ok := writeSubtree(h, v, ids[end])
		if !ok {
			return 0, key, false
		}
		pages += n
	}
	h.Sum(key[:0])
	return end, key, true
}

// writeSubtree writes to h what the markdown-format answer of page id is
// made of, besides the space and the format: its object's hash (its whole
// subtree's content) and, for each page of its subtree, its slug path and
// Git path, which depend on pages outside. It returns the pages of the
// subtree; ok is false when v's tree is not a stored one, whose pages have
// no hash.
func writeSubtree(h hash.Hash, v *View, id string) (pages int, ok bool) {
	hash, ok := v.Tree.PageHash(id)
	if !ok {
		return 0, false
	}
	h.Write([]byte(hash))
	info := v.Index()
	var b []byte
	var walk func(id string)
	walk = func(id string) {
		pages++
		b = b[:0]
		for _, s := range [...]string{id, info.Path[id], info.Git[id]} {
			b = append(append(b, s...), 0)
		}
		h.Write(b)
		for _, c := range v.Tree.Pages[id].Children {
			walk(c)
		}
	}
	walk(id)
	return pages, true
}

// pageKey names the answer of page id in format f by what it is made of
// rather than by the revision, so that a page read after a merge that left
// it as it was finds its answer kept; ok is false for the document format,
// whose links depend on other pages, and for trees not stored.
func pageKey(v *View, f Format, id string) (key string, ok bool) {
	if f.Document {
		return "", false
	}
	h := sha256.New()
	h.Write([]byte(v.Space.ID))
	h.Write([]byte{0, boolByte(f.Metadata)})
	if _, ok := writeSubtree(h, v, id); !ok {
		return "", false
	}
	return "page\x00" + string(h.Sum(nil)), true
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// encodeListRun encodes the top-level pages ids of v as the list holds
// them: as they are read one by one, each kept in Answers by what
// it is made of (pageAnswer), so that a merge that edits one page encodes
// that page again, not its run.
func (r *Reader) encodeListRun(ctx context.Context, l wire.Links, v *View, f Format, ids []string) (*Run, error) {
	var b []byte
	for i, id := range ids {
		key, build := r.pageAnswer(l, v, id, f)
		a, err := r.answers.Get(ctx, key, build)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		for _, part := range a.Body {
			b = append(b, part...)
		}
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	// Kept at their exact size: grown by appending, they held up to twice
	// what the cache counts.
	return &Run{JSON: bytes.Clone(b), Z: bytes.Clone(deflated(b, false))}, nil
}
