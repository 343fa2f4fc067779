//go:build !linux

package probe

import (
	"context"
	"errors"
	"time"
)

// zcryptoAvailable: zmap/zcrypto does not build here (zcrypto.go).
const zcryptoAvailable = false

func (p *prober) zcryptoHandshake(context.Context, *conn, clientSpec, *session, *handshakeResult) (time.Duration, tlsCloser, error) {
	return 0, nil, errors.New("zmap/zcrypto, which completes DHE handshakes, builds on Linux only")
}
