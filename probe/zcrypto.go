//go:build linux

package probe

// zmap/zcrypto's fork of crypto/tls completes the handshakes crypto/tls
// cannot: DHE suites (crypto/tls dropped finite-field DH). Its x509
// package builds on Linux but not on macOS or Windows, so it is confined
// to this file; elsewhere zcrypto_other.go says DHE-only servers cannot be
// measured.

import (
	"context"
	"time"

	ztls "github.com/zmap/zcrypto/tls"
)

const zcryptoAvailable = true

func (p *prober) zcryptoHandshake(ctx context.Context, c *conn, cl clientSpec, sess *session, hr *handshakeResult) (time.Duration, tlsCloser, error) {
	cache, _ := sess.z.(*oneSession[*ztls.ClientSessionState])
	if cache == nil {
		cache = newOneSession[*ztls.ClientSessionState]()
		sess.z = cache
	}
	cfg := &ztls.Config{
		ServerName:             p.serverName(),
		InsecureSkipVerify:     true,
		ClientSessionCache:     cache,
		SessionTicketsDisabled: cl.noTickets,
		ClientDSAEnabled:       true,
	}
	if cl.version != 0 {
		cfg.MinVersion, cfg.MaxVersion = uint16(cl.version), uint16(cl.version)
	}
	// ForceSuites: zcrypto otherwise drops the suites missing from its
	// crypto/tls-style list, DHE among them, though it implements them.
	cfg.CipherSuites, cfg.ForceSuites = cl.suites, true
	zc := ztls.Client(c, cfg)
	if err := zc.HandshakeContext(ctx); err != nil {
		return 0, nil, err
	}
	doneAt := time.Since(c.start)
	st := zc.ConnectionState()
	hr.version, hr.suite, hr.resumed = Version(st.Version), st.CipherSuite, st.DidResume
	if hr.resumed {
		hr.group = "none (resumed)"
	}
	for _, cert := range st.PeerCertificates {
		hr.certs = append(hr.certs, cert.Raw)
	}
	hr.ocsp = st.OCSPResponse
	return doneAt, zc, nil
}
