package tlslab

import "github.com/cryptocost/cryptocost/internal/tlswire"

// Key log labels (NSS key log format; internal/tlswire).
const (
	LabelClientRandom    = tlswire.LabelClientRandom
	LabelClientHandshake = tlswire.LabelClientHandshake
	LabelServerHandshake = tlswire.LabelServerHandshake
	LabelClientTraffic0  = tlswire.LabelClientTraffic0
	LabelServerTraffic0  = tlswire.LabelServerTraffic0
)

// KeyLog holds TLS secrets by label and client random.
type KeyLog = tlswire.KeyLog

// KeyLogBuffer is an io.Writer for tls.Config.KeyLogWriter that keeps what
// was written.
type KeyLogBuffer = tlswire.KeyLogBuffer

// ParseKeyLog reads NSS key log lines (tlswire.ParseKeyLog).
func ParseKeyLog(data []byte) (*KeyLog, error) { return tlswire.ParseKeyLog(data) }
