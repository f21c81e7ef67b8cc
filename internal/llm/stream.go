package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
)

// Stream asks for the answer streamed ("stream": true; server-sent events of chunks,
// "data: {json}" lines, ending with "data: [DONE]"), calls onDelta with each piece of
// choices[0].delta.content as it arrives (an error from onDelta stops the stream and is
// returned), and returns the whole text.
//
// The text returned is always the concatenation of the pieces given to
// onDelta, also with an error, so a caller can keep a partial answer.
// onDelta may be nil. A stream that ends without [DONE] after at least one
// chunk is taken as complete, as some servers just close the connection.
func (m *Model) Stream(ctx context.Context, messages []Message, onDelta func(string) error) (string, error) {
	resp, err := m.post(ctx, messages, true)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	// A server that ignores "stream" answers with one JSON body.
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mediaType == "application/json" {
		return "", errors.New("llm: asked for an event stream, got application/json")
	}
	s := &eventStream{model: m, onDelta: onDelta}
	err = s.read(ctx, resp.Body)
	return s.text.String(), err
}

// eventStream reads the server-sent events of a streamed answer.
type eventStream struct {
	model   *Model
	onDelta func(string) error
	text    strings.Builder
	chunks  int    // chunks read, to tell a stream that ended from one that never began
	data    []byte // data of the event being read
	hasData bool   // the event being read has a data line (its data may be empty)
}

// byteOrderMark may begin a stream, and is not part of its first line.
const byteOrderMark = "\uFEFF"

// read consumes the body until [DONE] or its end.
func (s *eventStream) read(ctx context.Context, body io.Reader) error {
	lines := bufio.NewScanner(body)
	lines.Buffer(make([]byte, 0, 4096), maxEventSize)
	lines.Split(scanLines)
	first := true
	for lines.Scan() {
		line := lines.Bytes()
		if first {
			line = bytes.TrimPrefix(line, []byte(byteOrderMark))
			first = false
		}
		done, err := s.line(ctx, line)
		if done || err != nil {
			return err
		}
	}
	if err := lines.Err(); err != nil {
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("llm: %w", ctx.Err())
		case errors.Is(err, bufio.ErrTooLong):
			return fmt.Errorf("%w: stream line over %d bytes", ErrTooLarge, maxEventSize)
		}
		return fmt.Errorf("llm: reading stream: %w", err)
	}
	// The spec drops an event not ended by a blank line, but servers that
	// close right after their last line mean it.
	if _, err := s.dispatch(ctx); err != nil {
		return err
	}
	if s.chunks == 0 {
		return errors.New("llm: stream ended before any chunk")
	}
	return nil
}

// line handles one line of the stream; done reports [DONE].
func (s *eventStream) line(ctx context.Context, line []byte) (done bool, err error) {
	if len(line) == 0 {
		return s.dispatch(ctx)
	}
	if line[0] == ':' {
		return false, nil // a comment, often a keep-alive
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	if string(field) != "data" {
		return false, nil // event, id, retry and unknown fields say nothing we use
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	if s.hasData {
		s.data = append(s.data, '\n') // data lines of one event join with newlines
	}
	if len(s.data)+len(value) > maxEventSize {
		return false, fmt.Errorf("%w: stream event over %d bytes", ErrTooLarge, maxEventSize)
	}
	s.data = append(s.data, value...)
	s.hasData = true
	return false, nil
}

// dispatch handles the event read so far, when it has data: the end of the
// stream, or a chunk whose delta goes to onDelta.
func (s *eventStream) dispatch(ctx context.Context) (done bool, err error) {
	if !s.hasData {
		return false, nil
	}
	data := s.data
	s.data, s.hasData = s.data[:0], false
	// Lines already buffered would otherwise keep coming after a cancel.
	if ctx.Err() != nil {
		return false, fmt.Errorf("llm: %w", ctx.Err())
	}
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		return true, nil
	}
	var chunk struct {
		Choices []struct {
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &chunk); err != nil {
		return false, fmt.Errorf("llm: malformed stream chunk: %w", err)
	}
	// Some servers report a failure part way through as a chunk with an error.
	if msg, ok := s.model.errorMessage(chunk.Error); ok {
		if msg == "" {
			return false, errors.New("llm: endpoint sent an error in the stream")
		}
		return false, fmt.Errorf("llm: endpoint sent an error in the stream: %s", msg)
	}
	s.chunks++
	// Chunks without choices (usage, content filter results) or without
	// content (the first, with the role) carry no text.
	if len(chunk.Choices) == 0 || chunk.Choices[0].Delta.Content == "" {
		return false, nil
	}
	delta := chunk.Choices[0].Delta.Content
	if s.text.Len()+len(delta) > maxStreamText {
		return false, fmt.Errorf("%w: streamed text over %d bytes", ErrTooLarge, maxStreamText)
	}
	s.text.WriteString(delta)
	if s.onDelta != nil {
		if err := s.onDelta(delta); err != nil {
			return false, err
		}
	}
	return false, nil
}

// scanLines splits a stream into lines ended by CRLF, LF or a lone CR, as
// the SSE spec allows all three.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return i + 2, data[:i], nil
	case i+1 < len(data) || atEOF:
		return i + 1, data[:i], nil
	}
	return 0, nil, nil // a CR at the end of what is read: an LF may follow
}
