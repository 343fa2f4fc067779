package sensor

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"strings"

	"github.com/cryptocost/cryptocost/internal/edhoc"
	"github.com/cryptocost/cryptocost/link"
)

// Variant is one way a sensor protects its readings: a protection, the
// sensor's signature algorithm (none for a PSK), and for DTLS whether the
// Connection ID is used.
type Variant struct {
	Protection *Protection
	Alg        *Alg
	CID        bool
	// EDHOC is the EDHOC method of an edhoc-oscore variant, EDHOCCred how
	// the sensor names its credential.
	EDHOC     *EDHOCOSCORE
	EDHOCCred *EDHOCCred
}

// Name is the variant's subject name: "sensor/cose-sign1/ES256",
// "sensor/dtls-psk/cid", "sensor/dtls-ecdhe/ES256/cid",
// "sensor/edhoc-oscore/ES256/static-dh".
func (v Variant) Name() string {
	parts := []string{"sensor", v.Protection.Name}
	if v.Alg != nil {
		parts = append(parts, v.Alg.Name)
	}
	if v.CID {
		parts = append(parts, "cid")
	}
	if v.EDHOC != nil {
		parts = append(parts, v.EDHOC.Name)
	}
	if v.EDHOCCred != nil && v.EDHOCCred.Ref == edhoc.ByKID {
		parts = append(parts, "kid")
	}
	return strings.Join(parts, "/")
}

// Testbed is one variant's system on loopback: the proxy (plain CoAP for
// applications and object-secured sensors, DTLS for the others), a relay
// standing for the sensor's radio link, the sensor, and an application.
type Testbed struct {
	Variant  Variant
	Encoding *Encoding
	Proxy    *Proxy
	Relay    *Relay
	Sensor   *Sensor
	App      *Application
	// Authorised is the installers' list, shared by proxy and application.
	Authorised Authorised
	// Identity is the sensor's, as printed on its label.
	Identity Identity
	// ProxyUDP and ProxyDTLS are the proxy's addresses (ProxyDTLS nil for
	// object security).
	ProxyUDP, ProxyDTLS net.Addr
	proxyKey            []byte
	edhocProxy          *EDHOCKeys
}

// NewTestbed builds the system for v: the sensor named name generates its
// key pair (or gets a PSK), its identity goes on the authorisation list,
// the proxy and the relay start. The sensor is not connected yet.
func NewTestbed(ctx context.Context, v Variant, enc *Encoding, params link.Params, name string) (*Testbed, error) {
	tb := &Testbed{Variant: v, Encoding: enc, Authorised: Authorised{}}
	flight := FlightInterval(params)
	s := &Sensor{Name: name, Protection: v.Protection, CID: v.CID, Encoding: enc, Resource: "temp", FlightInterval: flight}
	cfg := ProxyConfig{Authorised: tb.Authorised, PSKs: map[string][]byte{}, Encoding: enc, FlightInterval: flight}
	if v.Alg != nil {
		k, err := GenerateKey(v.Alg)
		if err != nil {
			return nil, err
		}
		s.Key = k
		tb.Identity = NewIdentity(k.COSEKey, name)
		tb.Authorised[tb.Identity] = true
	}
	if v.Protection.OSCORE {
		if err := tb.setupEDHOC(s, &cfg, name); err != nil {
			return nil, err
		}
	}
	t := v.Protection.Transport
	switch {
	case t == nil:
	case t.Kind == "psk":
		s.PSK = make([]byte, pskBytes)
		rand.Read(s.PSK)
		cfg.PSKs[name] = s.PSK
	case t.Kind == "ecdhe":
		if s.Key == nil {
			return nil, fmt.Errorf("%s needs the sensor's key pair: give an algorithm", v.Protection.Name)
		}
		cred, err := NewCredential(s.Key, name)
		if err != nil {
			return nil, err
		}
		s.Credential = cred
		pk, err := GenerateKey(Algs[0])
		if err != nil {
			return nil, err
		}
		if cfg.Certificate, err = NewCredential(pk, "proxy"); err != nil {
			return nil, err
		}
		tb.proxyKey = pk.COSEKey
	}
	tb.Sensor = s
	tb.Proxy = NewProxy(cfg)
	var err error
	if tb.ProxyUDP, err = tb.Proxy.StartUDP(); err != nil {
		return nil, err
	}
	target := tb.ProxyUDP
	if t != nil {
		dcfg, err := tb.Proxy.ServerConfig(t, v.CID)
		if err != nil {
			tb.Close()
			return nil, err
		}
		if tb.ProxyDTLS, err = tb.Proxy.StartDTLS(dcfg); err != nil {
			tb.Close()
			return nil, err
		}
		target = tb.ProxyDTLS
	}
	if tb.Relay, err = NewRelay(target, params, 1); err != nil {
		tb.Close()
		return nil, err
	}
	if tb.App, err = DialApplication(ctx, tb.ProxyUDP, tb.Authorised, enc); err != nil {
		tb.Close()
		return nil, err
	}
	return tb, nil
}

// Connect connects the sensor through the relay (for DTLS, the handshake).
func (tb *Testbed) Connect(ctx context.Context) error {
	return tb.Sensor.Dial(ctx, tb.Relay.Addr(), tb.proxyKey)
}

// Close stops every party.
func (tb *Testbed) Close() {
	if tb.Sensor != nil {
		tb.Sensor.Close()
	}
	if tb.App != nil {
		tb.App.Close()
	}
	if tb.Relay != nil {
		tb.Relay.Close()
	}
	if tb.Proxy != nil {
		tb.Proxy.Close()
	}
}

// setupEDHOC gives the sensor and the proxy their EDHOC credentials: the
// sensor's CCS (its signature key for method 0, a static DH key for
// method 3) is what the installer's identity covers; the proxy's CCS is
// known to the sensor (pinned, as the DTLS-ECDHE variant pins the key).
func (tb *Testbed) setupEDHOC(s *Sensor, cfg *ProxyConfig, name string) error {
	v := tb.Variant
	suite := edhocSuite(v.Alg)
	m := v.EDHOC.Method
	var kid []byte
	if v.EDHOCCred != nil && v.EDHOCCred.Ref == edhoc.ByKID {
		kid = sensorKID
	}
	sk, err := newEDHOCKeys(suite, m == 3, name, kid, s.Key)
	if err != nil {
		return err
	}
	var proxyOwn *KeyPair
	if m == 0 {
		if proxyOwn, err = GenerateKey(v.Alg); err != nil {
			return err
		}
	}
	pk, err := newEDHOCKeys(suite, m == 3, "proxy", proxyKID, proxyOwn)
	if err != nil {
		return err
	}
	// The identity the installer collects is the one EDHOC authenticates:
	// h(COSE_Key in the CCS | name).
	delete(tb.Authorised, tb.Identity)
	tb.Identity = NewIdentity(sk.Cred.COSEKey, name)
	tb.Authorised[tb.Identity] = true
	cfg.EDHOC = &EDHOCConfig{Suite: suite, Method: m, Keys: pk}
	if kid != nil {
		cfg.EDHOC.Provisioned = []*edhoc.Credential{sk.Cred}
	}
	if s.EDHOC, err = newEDHOCInitiator(v, sk, pk.Cred); err != nil {
		return err
	}
	tb.edhocProxy = pk
	return nil
}

// sensorKID is the kid of a sensor's CCS named by reference: 0x2b, as in
// RFC 9529 §3 (a one-byte integer in PLAINTEXT_3).
var sensorKID = []byte{0x2b}

// newEDHOCInitiator is a sensor's EDHOC Initiator with keys k, trusting
// the proxy's credential.
func newEDHOCInitiator(v Variant, k *EDHOCKeys, proxy *edhoc.Credential) (*EDHOCInitiator, error) {
	st := &edhoc.Stats{}
	ref := edhoc.ByValueCCS
	if v.EDHOCCred != nil && k.Cred.KID != nil {
		ref = v.EDHOCCred.Ref
	}
	sess, err := edhoc.NewInitiator(edhoc.Party{Suite: edhocSuite(v.Alg), Method: v.EDHOC.Method, ConnID: sensorCI, Cred: k.Cred,
		Ref: ref, SignKey: k.Signer, DHKey: k.DH, Peer: edhoc.ResolveFrom(proxy), Stats: st})
	if err != nil {
		return nil, err
	}
	return &EDHOCInitiator{Session: sess, Stats: st}, nil
}

// edhocImpostor is a device with its own fresh key and EDHOC credential
// under name, which the proxy's list does not hold.
func (tb *Testbed) edhocImpostor(name string) (*Sensor, error) {
	v := tb.Variant
	s := &Sensor{Name: name, Protection: v.Protection, Encoding: tb.Encoding, Resource: "temp"}
	var own *KeyPair
	if v.EDHOC.Method == 0 {
		var err error
		if own, err = GenerateKey(v.Alg); err != nil {
			return nil, err
		}
		s.Key = own
	}
	k, err := newEDHOCKeys(edhocSuite(v.Alg), v.EDHOC.Method == 3, name, nil, own)
	if err != nil {
		return nil, err
	}
	if s.EDHOC, err = newEDHOCInitiator(v, k, tb.edhocProxy.Cred); err != nil {
		return nil, err
	}
	return s, nil
}
