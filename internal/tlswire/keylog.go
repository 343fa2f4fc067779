package tlswire

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
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
	secrets map[string][]byte // label + " " + hex(client random) -> secret
	byLabel map[string][][]byte
}

// ParseKeyLog reads NSS key log lines ("LABEL <client random hex> <secret
// hex>"); comments (#) and blank lines are skipped. A malformed line is an
// error naming its line number.
func ParseKeyLog(data []byte) (*KeyLog, error) {
	k := &KeyLog{secrets: map[string][]byte{}, byLabel: map[string][][]byte{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("key log line %d: want LABEL CLIENT_RANDOM SECRET", n)
		}
		cr, err1 := hex.DecodeString(f[1])
		secret, err2 := hex.DecodeString(f[2])
		if err1 != nil || err2 != nil || len(secret) == 0 {
			return nil, fmt.Errorf("key log line %d: not hexadecimal", n)
		}
		k.secrets[f[0]+" "+hex.EncodeToString(cr)] = secret
		k.byLabel[f[0]] = append(k.byLabel[f[0]], secret)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("key log: %w", err)
	}
	return k, nil
}

// Secret returns the secret logged under label for this client random.
func (k *KeyLog) Secret(label string, clientRandom []byte) []byte {
	if k == nil {
		return nil
	}
	return k.secrets[label+" "+hex.EncodeToString(clientRandom)]
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

// KeyLog parses what was written.
func (b *KeyLogBuffer) KeyLog() (*KeyLog, error) { return ParseKeyLog(b.Bytes()) }
