package tlswire

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sync"
)

// Key log labels (the NSS key log format as crypto/tls's KeyLogWriter and
// OpenSSL's -keylogfile write it; draft-ietf-tls-keylogfile).
const (
	LabelClientRandom    = "CLIENT_RANDOM" // TLS 1.0–1.2 master secret
	LabelClientHandshake = "CLIENT_HANDSHAKE_TRAFFIC_SECRET"
	LabelServerHandshake = "SERVER_HANDSHAKE_TRAFFIC_SECRET"
	LabelClientTraffic0  = "CLIENT_TRAFFIC_SECRET_0"
	LabelServerTraffic0  = "SERVER_TRAFFIC_SECRET_0"
)

// KeyLog holds TLS secrets by label and client random.
type KeyLog struct {
	secrets map[string][]byte // label + " " + client random (raw bytes) -> secret
	byLabel map[string][][]byte
}

// ParseKeyLog reads NSS key log lines ("LABEL <client random hex> <secret
// hex>"); comments (#) and blank lines are skipped. A malformed line is an
// error naming its line number. It runs once per connection the TLS lab
// analyses, so it splits lines itself rather than through a Scanner and
// strings.Fields, whose buffers cost more than the handful of lines.
func ParseKeyLog(data []byte) (*KeyLog, error) {
	k := &KeyLog{secrets: make(map[string][]byte, 8), byLabel: make(map[string][][]byte, 5)}
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		label, rest, ok1 := cutField(line)
		crHex, secretHex, ok2 := cutField(rest)
		if !ok1 || !ok2 || len(secretHex) == 0 || bytes.ContainsAny(secretHex, " \t") {
			return nil, fmt.Errorf("key log line %d: want LABEL CLIENT_RANDOM SECRET", n)
		}
		raw := make([]byte, hex.DecodedLen(len(crHex))+hex.DecodedLen(len(secretHex)))
		cr := raw[:hex.DecodedLen(len(crHex))]
		secret := raw[len(cr):]
		if _, err := hex.Decode(cr, crHex); err != nil {
			return nil, fmt.Errorf("key log line %d: not hexadecimal", n)
		}
		if _, err := hex.Decode(secret, secretHex); err != nil || len(secret) == 0 {
			return nil, fmt.Errorf("key log line %d: not hexadecimal", n)
		}
		l := internLabel(label)
		k.secrets[l+" "+string(cr)] = secret
		k.byLabel[l] = append(k.byLabel[l], secret)
	}
	return k, nil
}

// internLabel returns the label's string: a constant for the labels TLS
// 1.3 and 1.2 log (no allocation for each line of each connection's log).
func internLabel(label []byte) string {
	switch string(label) {
	case LabelClientRandom:
		return LabelClientRandom
	case LabelClientHandshake:
		return LabelClientHandshake
	case LabelServerHandshake:
		return LabelServerHandshake
	case LabelClientTraffic0:
		return LabelClientTraffic0
	case LabelServerTraffic0:
		return LabelServerTraffic0
	}
	return string(label)
}

// cutField splits line at its first run of spaces or tabs: the field
// before it and what follows (ok false when there is no such run).
func cutField(line []byte) (field, rest []byte, ok bool) {
	i := bytes.IndexAny(line, " \t")
	if i < 0 {
		return line, nil, false
	}
	return line[:i], bytes.TrimLeft(line[i:], " \t"), true
}

// Secret returns the secret logged under label for this client random.
func (k *KeyLog) Secret(label string, clientRandom []byte) []byte {
	if k == nil {
		return nil
	}
	return k.secrets[label+" "+string(clientRandom)]
}

// Last returns the secret last logged under label, whatever the client
// random: for a log of one connection.
func (k *KeyLog) Last(label string) []byte {
	if k == nil || len(k.byLabel[label]) == 0 {
		return nil
	}
	s := k.byLabel[label]
	return s[len(s)-1]
}

// Len is the number of secrets held.
func (k *KeyLog) Len() int {
	if k == nil {
		return 0
	}
	return len(k.secrets)
}

// KeyLogBuffer is an io.Writer for tls.Config.KeyLogWriter that keeps what
// was written (safe for concurrent use by a client and a server).
type KeyLogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *KeyLogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes returns a copy of everything written.
func (b *KeyLogBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// Len is the number of bytes written.
func (b *KeyLogBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// Since returns a copy of what was written from byte offset from on (all
// of it if from is past the end): one connection's secrets, read from a
// log that holds many, without copying the whole log each time.
func (b *KeyLogBuffer) Since(from int) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	all := b.buf.Bytes()
	if from > len(all) || from < 0 {
		from = 0
	}
	return bytes.Clone(all[from:])
}

// KeyLog parses what was written.
func (b *KeyLogBuffer) KeyLog() (*KeyLog, error) { return ParseKeyLog(b.Bytes()) }
