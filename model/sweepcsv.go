package model

import (
	"bufio"
	"context"
	"encoding/csv"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// WriteSweepCSV streams one CSV row per point: model, variant, every
// parameter, every output (12 significant digits; empty when unknown). It
// holds nothing in memory beyond a few chunks, so it suits sweeps of
// millions of points. Rows are written in place into buffers (about
// 5 400 instructions a TinySeRSync row, half of them the 15 outputs'
// digits), by up to four goroutines for a sweep larger than one chunk,
// each evaluating its own chunks of points with its own evaluator; chunks
// are written in order, so the output is the same as one goroutine's.
// docs/benchmarks.md § Model sweeps measures it. It returns the number of points written; on an evaluation
// error or cancellation, the rows before the failing point are written.
func (p *Plan) WriteSweepCSV(ctx context.Context, w io.Writer, header bool) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	if header {
		cw := csv.NewWriter(bw)
		h := []string{"model", "variant"}
		for _, par := range p.Model.Params {
			h = append(h, par.Name)
		}
		for _, o := range outputs {
			h = append(h, o.Name+" ("+o.Unit+")")
		}
		if err := cw.Write(h); err != nil {
			return 0, err
		}
		cw.Flush()
	}
	write := p.writeRows
	if workers := min(runtime.GOMAXPROCS(0), 4); workers > 1 && p.Points() > sweepChunk {
		write = func(ctx context.Context, w io.Writer) (int, error) { return p.writeChunks(ctx, w, workers) }
	}
	n, err := write(ctx, bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// writeRows writes the rows in one goroutine.
func (p *Plan) writeRows(ctx context.Context, w io.Writer) (int, error) {
	rows := p.newCSVRows()
	n := 0
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		n++
		rows.buf = rows.appendRow(rows.buf[:0], pt, out)
		_, err := w.Write(rows.buf)
		return err
	})
	return n, err
}

// sweepChunk is the number of points a goroutine evaluates and formats at
// a time: about 170 kB of TinySeRSync's CSV, a fraction of a millisecond
// of work, small enough for its buffer to stay in the cache as it is
// reused (with 4096 points, first touches of fresh buffer pages were a
// fifth of a sweep's CPU time).
const sweepChunk = 1024

// chunk is a run of points of one case, [from, to) in Run's order.
type chunk struct {
	c, from, to int
	done        chan chunkOut
}

type chunkOut struct {
	csv []byte
	n   int
	err error
}

// writeChunks evaluates the plan's chunks on workers goroutines and writes
// them in order.
func (p *Plan) writeChunks(ctx context.Context, w io.Writer, workers int) (int, error) {
	stop := make(chan struct{})
	jobs := make(chan *chunk)
	order := make(chan *chunk, 2*workers) // bounds the chunks in flight
	free := make(chan []byte, 3*workers)  // buffers written, for reuse
	go func() {
		defer close(order)
		defer close(jobs)
		per := p.casePoints()
		for c := range p.base {
			for from := 0; from < per; from += sweepChunk {
				ch := &chunk{c: c, from: from, to: min(from+sweepChunk, per), done: make(chan chunkOut, 1)}
				for _, q := range []chan *chunk{order, jobs} {
					select {
					case q <- ch:
					case <-stop:
						return
					}
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cw := &chunkWorker{p: p, ev: p.Eval.clone(), rows: p.newCSVRows()}
			for ch := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
					// Room for the longest rows: growing by appends
					// would copy and touch fresh pages again.
					buf = make([]byte, 0, cw.rows.room*(ch.to-ch.from))
				}
				ch.done <- cw.run(ctx, ch, buf[:0])
			}
		}()
	}
	n := 0
	var err error
	for ch := range order {
		out := <-ch.done
		if _, werr := w.Write(out.csv); werr != nil && out.err == nil {
			out.err = werr
		}
		n += out.n
		select {
		case free <- out.csv:
		default:
		}
		if out.err != nil {
			err = out.err
			break
		}
	}
	close(stop)
	for range order { // let the producer finish
	}
	wg.Wait()
	return n, err
}

// chunkWorker is one goroutine's evaluator and formatter.
type chunkWorker struct {
	p    *Plan
	ev   *Evaluator
	rows *csvRows
	pt   *Point
	out  Outputs
}

func (cw *chunkWorker) run(ctx context.Context, ch *chunk, buf []byte) chunkOut {
	if err := ctx.Err(); err != nil {
		return chunkOut{csv: buf, err: err}
	}
	p := cw.p
	if cw.pt == nil {
		cw.pt = &Point{Index: make([]int, len(p.Vary)), Values: make([]float64, len(p.Model.Params))}
	}
	pt := cw.pt
	p.pointAt(pt, ch.c, ch.from)
	for i := ch.from; i < ch.to; i++ {
		if err := cw.ev.Eval(ch.c, pt.Values, &cw.out); err != nil {
			return chunkOut{csv: buf, n: i - ch.from, err: err}
		}
		buf = cw.rows.appendRow(buf, pt, &cw.out)
		p.next(pt)
	}
	return chunkOut{csv: buf, n: ch.to - ch.from}
}

// casePoints is the number of points of one case: the product of the
// swept parameters' value counts.
func (p *Plan) casePoints() int {
	n := 1
	for _, v := range p.Vary {
		n *= len(v.Values)
	}
	return n
}

// pointAt sets pt to the i-th point of case c in Run's order (the first
// swept parameter fastest).
func (p *Plan) pointAt(pt *Point, c, i int) {
	pt.Case, pt.Variant = c, p.Cases[c]
	copy(pt.Values, p.base[c])
	for k, v := range p.Vary {
		pt.Index[k] = i % len(v.Values)
		i /= len(v.Values)
		pt.Values[p.varyIdx[k]] = v.Values[pt.Index[k]]
	}
}

// csvRows formats sweep rows. What does not change from row to row is
// formatted once: per case, the model and variant columns with the
// parameters not swept, as runs of text between the swept ones; each swept
// parameter's values once per value. The outputs go through appendG12,
// straight into the row (keeping the previous row's text to copy when an
// output did not change cost more than formatting it again).
type csvRows struct {
	pieces [][]piece  // per case: the parameter columns, in order
	swept  [][][]byte // per swept parameter, per value index: its text
	// values are the outputs' Value functions, in order.
	values []func(*Outputs) float64
	// room is the most a row can take: its longest fixed and swept texts
	// and maxG12 bytes an output; a row reserves it once.
	room int
	buf  []byte
}

// piece is a run of fixed text, or (vary ≥ 0) a swept parameter's value.
type piece struct {
	text []byte
	vary int
}

func (p *Plan) newCSVRows() *csvRows {
	r := &csvRows{}
	for _, o := range outputs {
		r.values = append(r.values, o.Value)
	}
	for _, v := range p.Vary {
		texts := make([][]byte, len(v.Values))
		longest := 0
		for k, x := range v.Values {
			texts[k] = strconv.AppendFloat(nil, x, 'g', -1, 64)
			longest = max(longest, len(texts[k]))
		}
		r.swept = append(r.swept, texts)
		r.room += longest
	}
	fixed := 0
	for c, base := range p.base {
		// The model and variant columns, quoted as CSV needs.
		name := ""
		if v := p.Cases[c]; v != nil {
			name = v.Name
		}
		var b strings.Builder
		cw := csv.NewWriter(&b)
		cw.Write([]string{p.Model.Name, name})
		cw.Flush()
		text := []byte(strings.TrimSuffix(b.String(), "\n"))
		var pieces []piece
		for j, x := range base {
			text = append(text, ',')
			if k := slices.Index(p.varyIdx, j); k >= 0 {
				pieces = append(pieces, piece{text: text, vary: -1}, piece{vary: k})
				text = nil
				continue
			}
			text = strconv.AppendFloat(text, x, 'g', -1, 64)
		}
		pieces = append(pieces, piece{text: text, vary: -1})
		n := 0
		for _, pc := range pieces {
			n += len(pc.text)
		}
		fixed = max(fixed, n)
		r.pieces = append(r.pieces, pieces)
	}
	r.room += fixed + (1+maxG12)*len(outputs) + 1
	return r
}

// appendRow appends the CSV line of one point to b: its room reserved
// once, the text written in place.
func (r *csvRows) appendRow(b []byte, pt *Point, out *Outputs) []byte {
	b = slices.Grow(b, r.room)
	n := len(b)
	w := b[:cap(b)]
	for _, pc := range r.pieces[pt.Case] {
		if pc.vary >= 0 {
			n += copy(w[n:], r.swept[pc.vary][pt.Index[pc.vary]])
		} else {
			n += copy(w[n:], pc.text)
		}
	}
	for _, value := range r.values {
		w[n] = ','
		n++
		if v := value(out); v == v { // NaN, unknown: an empty cell
			n = putG12(w, n, v)
		}
	}
	w[n] = '\n'
	return w[:n+1]
}
