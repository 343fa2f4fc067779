package sensor

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
	piondtls "github.com/pion/dtls/v3"
	"github.com/pion/dtls/v3/pkg/crypto/elliptic"
)

// Transport is DTLS 1.2 (RFC 6347) with one kind of credential, in the
// profile RFC 7925 gives constrained devices: AES-128-CCM-8 (RFC 6655,
// RFC 7251), secp256r1 for ECDHE (§4.4), the extended master secret
// (RFC 7627, pion's default of requesting it; §16), and optionally the
// Connection ID (RFC 9146).
type Transport struct {
	// Kind is "psk" or "ecdhe".
	Kind  string
	Suite piondtls.CipherSuiteID
	// SuiteName is the IANA name.
	SuiteName string
	// AEADOverhead is what the cipher suite adds to every protected
	// record: the 8-byte explicit nonce and the 8-byte CCM-8 tag (RFC 6655
	// §3).
	AEADOverhead int
}

var (
	transportPSK = Transport{Kind: "psk", Suite: piondtls.TLS_PSK_WITH_AES_128_CCM_8,
		SuiteName: "TLS_PSK_WITH_AES_128_CCM_8", AEADOverhead: 16}
	transportECDHE = Transport{Kind: "ecdhe", Suite: piondtls.TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8,
		SuiteName: "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8", AEADOverhead: 16}
)

// cidBytes is the length of the Connection ID the proxy asks sensors to
// send (RFC 9146 leaves it to the receiver). Four random bytes tell 2^32
// sessions apart, ample for one proxy's sensors, and each byte is paid on
// every record a sensor sends. The sensor asks for none back (a
// zero-length CID, RFC 9146 §3): it does not move, the proxy does not
// need to find it after a NAT rebinding.
const cidBytes = 4

// pskBytes is the pre-shared key length: 128 bits, the AES-128 key
// strength of the suite (RFC 7925 §4.2 asks for keys of sufficient
// entropy).
const pskBytes = 16

// Credential is a DTLS certificate with its key: a self-signed X.509
// certificate carrying the device's own key pair. Nobody checks its
// signature or chain: the peer pins the key (the proxy's) or authorises
// the key's identity (a sensor's) — the role RFC 7250 raw public keys
// play, which pion does not implement.
type Credential struct {
	Certificate tls.Certificate
	Key         *KeyPair
}

// NewCredential makes a minimal self-signed certificate for k with common
// name cn (the endpoint name for sensors: it is the O of the identity).
func NewCredential(k *KeyPair, cn string) (*Credential, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, k.Signer.Public(), k.Signer)
	if err != nil {
		return nil, fmt.Errorf("certificate for %s: %w", cn, err)
	}
	return &Credential{Certificate: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: k.Signer}, Key: k}, nil
}

// SignTimer records the time of each signature a DTLS stack makes with a
// key: pion signs through crypto.Signer, so wrapping the key times the
// handshake's signature in place.
type SignTimer struct {
	crypto.Signer
	mu sync.Mutex
	ns []float64
}

// Sign signs and records the time it took.
func (s *SignTimer) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	start := time.Now()
	sig, err := s.Signer.Sign(r, digest, opts)
	d := time.Since(start)
	s.mu.Lock()
	s.ns = append(s.ns, float64(d.Nanoseconds()))
	s.mu.Unlock()
	return sig, err
}

// Samples returns the recorded times (ns).
func (s *SignTimer) Samples() []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]float64(nil), s.ns...)
}

// baseConfig is the part of the DTLS configuration both ends share.
func baseConfig(t *Transport, flight time.Duration) *piondtls.Config {
	return &piondtls.Config{
		CipherSuites:   []piondtls.CipherSuiteID{t.Suite},
		EllipticCurves: []elliptic.Curve{elliptic.P256},
		FlightInterval: flight,
	}
}

// FlightInterval is the DTLS retransmission timer for a link: RFC 6347
// §4.2.4.1's initial 1 s (pion's default), or, where a flight's round trip
// is longer (LoRaWAN: 1 s of latency and a kilobyte at 5.5 kbit/s), twice
// that round trip, so the handshake does not retransmit flights the peer
// is still receiving (the RFC's timer is meant to exceed the round trip).
func FlightInterval(p link.Params) time.Duration {
	rate := p.RateUp
	if p.RateDown > 0 && (rate == 0 || p.RateDown < rate) {
		rate = p.RateDown
	}
	rtt := 2 * p.Latency
	if rate > 0 {
		// A certificate flight of about a kilobyte, serialised.
		rtt += time.Duration(1024 * 8 / rate * float64(time.Second))
	}
	return max(time.Second, 2*rtt)
}

// ServerConfig is the proxy's DTLS configuration for transport t.
func (p *Proxy) ServerConfig(t *Transport, cid bool) (*piondtls.Config, error) {
	cfg := baseConfig(t, p.cfg.FlightInterval)
	if cid {
		cfg.ConnectionIDGenerator = piondtls.RandomCIDGenerator(cidBytes)
	}
	switch t.Kind {
	case "psk":
		cfg.PSK = func(identity []byte) ([]byte, error) {
			k, ok := p.cfg.PSKs[string(identity)]
			if !ok {
				p.mu.Lock()
				p.stats.Rejected["unknown PSK identity"]++
				p.mu.Unlock()
				return nil, fmt.Errorf("unknown PSK identity %q", identity)
			}
			return k, nil
		}
	case "ecdhe":
		if p.cfg.Certificate == nil {
			return nil, fmt.Errorf("proxy: ECDHE-ECDSA needs the proxy's certificate")
		}
		cfg.Certificates = []tls.Certificate{p.cfg.Certificate.Certificate}
		cfg.ClientAuth = piondtls.RequireAnyClientCert
		// The sensor's certificate is authorised by the identity of its
		// key and name, not by a chain: S004's "no trust anchors".
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return fmt.Errorf("no client certificate")
			}
			id, err := certificateIdentity(raw[0])
			if err != nil {
				return err
			}
			if !p.cfg.Authorised.Allows(id) {
				p.mu.Lock()
				p.stats.Rejected["identity not authorised"]++
				p.mu.Unlock()
				return fmt.Errorf("identity %s is not authorised", id)
			}
			return nil
		}
	default:
		return nil, fmt.Errorf("unknown DTLS credential kind %q", t.Kind)
	}
	return cfg, nil
}

// ClientConfig is a sensor's DTLS configuration: its PSK and identity, or
// its certificate (through a SignTimer) and the proxy's pinned key.
func ClientConfig(t *Transport, cid bool, ep string, psk []byte, cred *Credential, timer *SignTimer, proxyKey []byte, flight time.Duration) (*piondtls.Config, error) {
	cfg := baseConfig(t, flight)
	if cid {
		cfg.ConnectionIDGenerator = piondtls.OnlySendCIDGenerator()
	}
	switch t.Kind {
	case "psk":
		cfg.PSK = func([]byte) ([]byte, error) { return psk, nil }
		cfg.PSKIdentityHint = []byte(ep)
	case "ecdhe":
		if cred == nil {
			return nil, fmt.Errorf("sensor %s: ECDHE-ECDSA needs its certificate", ep)
		}
		c := cred.Certificate
		if timer != nil {
			timer.Signer = cred.Key.Signer
			c.PrivateKey = timer
		}
		cfg.Certificates = []tls.Certificate{c}
		// The proxy's key is pinned: compare it, skip the chain.
		cfg.InsecureSkipVerify = true
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return fmt.Errorf("the proxy sent no certificate")
			}
			cert, err := x509.ParseCertificate(raw[0])
			if err != nil {
				return err
			}
			k, err := COSEKey(cert.PublicKey)
			if err != nil {
				return err
			}
			if !bytes.Equal(k, proxyKey) {
				return fmt.Errorf("the proxy's key is not the pinned one")
			}
			return nil
		}
	default:
		return nil, fmt.Errorf("unknown DTLS credential kind %q", t.Kind)
	}
	return cfg, nil
}
