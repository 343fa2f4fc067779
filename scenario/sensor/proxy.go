package sensor

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/internal/edhoc"
	"github.com/cryptocost/cryptocost/internal/oscore"
	piondtls "github.com/pion/dtls/v3"
	"github.com/plgd-dev/go-coap/v3/dtls"
	"github.com/plgd-dev/go-coap/v3/message"
	"github.com/plgd-dev/go-coap/v3/message/codes"
	"github.com/plgd-dev/go-coap/v3/mux"
	coapNet "github.com/plgd-dev/go-coap/v3/net"
	"github.com/plgd-dev/go-coap/v3/options"
	"github.com/plgd-dev/go-coap/v3/udp"
	udpServer "github.com/plgd-dev/go-coap/v3/udp/server"
)

// Proxy is the CoAP mirror proxy and resource directory of S004: sensors
// register their resources (RFC 9176 §5.3, POST /rd?ep=NAME with a link
// format payload whose links carry the pk attribute), the proxy checks the
// registration against its authorisation list of identities, and then
// mirrors what the sensors PUT to their resources, so applications read a
// sleeping sensor's latest reading from the proxy (GET) and look its key
// up (GET /rd-lookup/res?ep=NAME, RFC 9176 §7).
//
// Paths, chosen short because every byte crosses the radio:
//
//	POST /rd?ep=NAME&lt=SECONDS    register; 2.01 Created, Location-Path m/ID
//	PUT  /m/ID/RES                 a new representation of resource RES
//	GET  /m/ID/RES                 the latest representation, as the sensor sent it
//	GET  /rd-lookup/res?ep=NAME    the endpoint's links, pk included
//
// With object security the proxy verifies every reading against the
// registered key (any node can; S004) and rejects bad signatures and stale
// readings; with DTLS it accepts what arrives over a session authenticated
// as the endpoint.
type Proxy struct {
	cfg ProxyConfig

	mu        sync.Mutex
	endpoints map[string]*endpoint // by endpoint name
	byID      map[string]*endpoint
	nextID    int
	stats     ProxyStats
	// received are the CoAP requests' sizes (RFC 7252 §3, CoAPMessage)
	// by the remote address they came from.
	received map[string][]int
	// EDHOC sessions waiting for message_3, by C_R; OSCORE contexts by the
	// client's Sender ID (C_R).
	edhocSessions map[string]*edhoc.Session
	oscorePeers   map[string]*oscorePeer
	nextCR        int

	udpServer  *udpServer.Server
	udpConn    *coapNet.UDPConn
	dtlsServer interface{ Stop() }
	dtlsLn     *coapNet.DTLSListener
	done       sync.WaitGroup
}

// ProxyConfig says whom the proxy serves.
type ProxyConfig struct {
	// Authorised are the identities installers collected.
	Authorised Authorised
	// PSKs are the pre-shared keys per endpoint name for DTLS-PSK (the
	// symmetric alternative S004 discusses: a secret per sensor, shared
	// with the server).
	PSKs map[string][]byte
	// Certificate is the proxy's own DTLS certificate (ECDHE-ECDSA); its
	// key is pinned in the sensors.
	Certificate *Credential
	// Compromise, if set, rewrites every stored representation the proxy
	// serves: a compromised proxy, for the attack fixtures.
	Compromise func(stored []byte) []byte
	// Encoding is the SenML encoding readings use.
	Encoding *Encoding
	// EDHOC is the proxy's EDHOC Responder configuration (edhoc-oscore).
	EDHOC *EDHOCConfig
	// FlightInterval is the DTLS retransmission timer (FlightInterval).
	FlightInterval time.Duration
}

// ProxyStats counts what the proxy did.
type ProxyStats struct {
	Accepted int
	// Rejected maps a reason to its count.
	Rejected map[string]int
	// VerifyNs are the times of the proxy's signature verifications.
	VerifyNs []float64
	// ServerErrors counts what the servers reported (failed handshakes,
	// undecodable datagrams); Errors keeps the first few.
	ServerErrors int
	Errors       []string
	// EDHOCMessage3 are the sizes of the message_3s received in EDHOC +
	// OSCORE requests; OSCOREInner the OSCORE requests' sizes.
	EDHOCMessage3 []int
	OSCOREInner   []OSCORESizes
}

type endpoint struct {
	name     string
	id       string
	identity Identity
	// key and alg are nil for PSK endpoints.
	key      crypto.PublicKey
	alg      *Alg
	coseKey  []byte
	links    []Link
	mirrored map[string]*representation
	last     float64 // time of the newest accepted reading
}

type representation struct {
	contentFormat message.MediaType
	body          []byte
}

// NewProxy makes a proxy; Start opens its sockets.
func NewProxy(cfg ProxyConfig) *Proxy {
	if cfg.Encoding == nil {
		cfg.Encoding = Encodings[0]
	}
	if cfg.FlightInterval == 0 {
		cfg.FlightInterval = time.Second
	}
	return &Proxy{cfg: cfg, endpoints: map[string]*endpoint{}, byID: map[string]*endpoint{},
		stats: ProxyStats{Rejected: map[string]int{}}, received: map[string][]int{},
		edhocSessions: map[string]*edhoc.Session{}, oscorePeers: map[string]*oscorePeer{}}
}

// maxRecorded bounds the request sizes kept per peer (a run sends at most
// 10000 readings), so a flood cannot grow the proxy without bound.
const maxRecorded = 20000

// maxMessageBytes bounds a CoAP message the proxy accepts: a registration
// is about 150 bytes and a reading about 100.
const maxMessageBytes = 1152

// StartUDP serves plain CoAP on a loopback port and returns its address.
func (p *Proxy) StartUDP() (net.Addr, error) {
	l, err := coapNet.NewListenUDP("udp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	p.udpConn = l
	p.udpServer = udp.NewServer(options.WithMux(p.router()), options.WithMaxMessageSize(maxMessageBytes), options.WithErrors(p.serverError))
	p.done.Add(1)
	go func() { defer p.done.Done(); p.udpServer.Serve(l) }()
	return l.LocalAddr(), nil
}

// StartDTLS serves CoAP over DTLS with cfg on a loopback port.
func (p *Proxy) StartDTLS(cfg *piondtls.Config) (net.Addr, error) {
	l, err := coapNet.NewDTLSListener("udp4", "127.0.0.1:0", cfg)
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	p.dtlsLn = l
	s := dtls.NewServer(options.WithMux(p.router()), options.WithMaxMessageSize(maxMessageBytes), options.WithErrors(p.serverError))
	p.dtlsServer = s
	p.done.Add(1)
	go func() { defer p.done.Done(); s.Serve(l) }()
	return l.Addr(), nil
}

// Close stops the servers.
func (p *Proxy) Close() {
	if p.udpServer != nil {
		p.udpServer.Stop()
	}
	if p.dtlsServer != nil {
		p.dtlsServer.Stop()
	}
	p.done.Wait()
}

// maxServerErrors bounds the errors kept: a hostile peer can cause many.
const maxServerErrors = 32

// serverError keeps what the CoAP and DTLS servers report (failed
// handshakes, undecodable datagrams) instead of printing it.
func (p *Proxy) serverError(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.ServerErrors++
	if len(p.stats.Errors) < maxServerErrors {
		p.stats.Errors = append(p.stats.Errors, err.Error())
	}
}

// SetCompromise makes the proxy rewrite what it serves (nil: honest
// again), for the attack fixtures.
func (p *Proxy) SetCompromise(f func(stored []byte) []byte) {
	p.mu.Lock()
	p.cfg.Compromise = f
	p.mu.Unlock()
}

// Stats returns a copy of the counters.
func (p *Proxy) Stats() ProxyStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := ProxyStats{Accepted: p.stats.Accepted, Rejected: map[string]int{}, VerifyNs: append([]float64(nil), p.stats.VerifyNs...),
		ServerErrors: p.stats.ServerErrors, Errors: append([]string(nil), p.stats.Errors...),
		EDHOCMessage3: append([]int(nil), p.stats.EDHOCMessage3...), OSCOREInner: append([]OSCORESizes(nil), p.stats.OSCOREInner...)}
	for k, v := range p.stats.Rejected {
		s.Rejected[k] = v
	}
	return s
}

// RejectedTotal is the number of requests rejected for any reason.
func (s ProxyStats) RejectedTotal() int {
	n := 0
	for _, v := range s.Rejected {
		n += v
	}
	return n
}

// ReceivedFrom returns the sizes of the CoAP requests that arrived from
// addr, computed from the decoded messages (RFC 7252 §3).
func (p *Proxy) ReceivedFrom(addr net.Addr) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.received[addr.String()]...)
}

func (p *Proxy) router() *mux.Router {
	r := mux.NewRouter()
	r.DefaultHandle(mux.HandlerFunc(p.serve))
	return r
}

// reject answers with a client error and a diagnostic payload (RFC 7252
// §5.5.2) and counts the reason.
func (p *Proxy) reject(w mux.ResponseWriter, code codes.Code, reason string) {
	p.mu.Lock()
	p.stats.Rejected[reason]++
	p.mu.Unlock()
	_ = w.SetResponse(code, message.TextPlain, bytes.NewReader([]byte(reason)))
}

func (p *Proxy) serve(w mux.ResponseWriter, r *mux.Message) {
	body, _ := r.ReadBody()
	opts := r.Options()
	size := CoAPMessage{TokenBytes: len(r.Token()), Options: opts, PayloadBytes: len(body)}.Size()
	p.mu.Lock()
	addr := w.Conn().RemoteAddr().String()
	if len(p.received[addr]) < maxRecorded {
		p.received[addr] = append(p.received[addr], size)
	}
	p.mu.Unlock()
	if r.Options().HasOption(oscore.OptionOSCORE) {
		if p.cfg.EDHOC == nil {
			p.reject(w, codes.Unauthorized, "Security context not found")
			return
		}
		p.serveOSCORE(w, r, body)
		return
	}
	p.route(w, r, body, peerOf(w))
}

// route dispatches a request (plain CoAP, over DTLS, or decrypted from
// OSCORE) to its resource; pr is who the transport authenticated.
func (p *Proxy) route(w mux.ResponseWriter, r *mux.Message, body []byte, peer peer) {
	path, err := r.Path()
	if err != nil {
		p.reject(w, codes.BadRequest, "bad path")
		return
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	queries, _ := r.Queries()
	switch {
	case r.Code() == codes.POST && path == edhocPath && p.cfg.EDHOC != nil && !peer.secure:
		p.edhocMessage1(w, body)
	case r.Code() == codes.POST && path == "/rd":
		p.register(w, r, queries, body, peer)
	case r.Code() == codes.GET && path == "/rd-lookup/res":
		p.lookup(w, queries)
	case len(segs) == 3 && segs[0] == "m" && r.Code() == codes.PUT:
		p.put(w, r, segs[1], segs[2], body, peer)
	case len(segs) == 3 && segs[0] == "m" && r.Code() == codes.GET:
		p.get(w, segs[1], segs[2])
	default:
		p.reject(w, codes.NotFound, "no such resource")
	}
}

// peer is who a DTLS or EDHOC session authenticated: a PSK identity or a
// certificate's key identity, or the identity and name of the CCS an EDHOC
// session authenticated (edhoc set); zero for plain CoAP.
type peer struct {
	secure      bool
	edhoc       bool
	pskIdentity string
	// identity of the certificate's key and common name (the endpoint
	// name), as Identity computes it.
	certIdentity *Identity
}

func peerOf(w mux.ResponseWriter) peer {
	c, ok := w.Conn().NetConn().(*piondtls.Conn)
	if !ok {
		return peer{}
	}
	st, ok := c.ConnectionState()
	if !ok {
		return peer{secure: true}
	}
	pr := peer{secure: true, pskIdentity: string(st.IdentityHint)}
	if len(st.PeerCertificates) > 0 {
		if id, err := certificateIdentity(st.PeerCertificates[0]); err == nil {
			pr.certIdentity = &id
		}
	}
	return pr
}

// certificateIdentity is the identity of a certificate's key with its
// common name as the endpoint name.
func certificateIdentity(der []byte) (Identity, error) {
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return Identity{}, err
	}
	ck, err := COSEKey(cert.PublicKey)
	if err != nil {
		return Identity{}, err
	}
	return NewIdentity(ck, cert.Subject.CommonName), nil
}

func query(queries []string, name string) (string, bool) {
	for _, q := range queries {
		if k, v, ok := strings.Cut(q, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// maxEndpointName: RFC 9176 §9.3 limits ep to 63 bytes.
const maxEndpointName = 63

func (p *Proxy) register(w mux.ResponseWriter, r *mux.Message, queries []string, body []byte, pr peer) {
	ep, ok := query(queries, "ep")
	if !ok || ep == "" || len(ep) > maxEndpointName {
		p.reject(w, codes.BadRequest, "registration needs ep (1-63 bytes)")
		return
	}
	if cf, err := r.ContentFormat(); err != nil || cf != message.AppLinkFormat {
		p.reject(w, codes.UnsupportedMediaType, "registration payload must be link format (40)")
		return
	}
	links, err := ParseLinks(string(body))
	if err != nil || len(links) == 0 {
		p.reject(w, codes.BadRequest, "registration payload: no links")
		return
	}
	e := &endpoint{name: ep, links: links, mirrored: map[string]*representation{}}
	if pr.edhoc {
		// EDHOC authenticated the CCS, whose identity was authorised then.
		if pr.pskIdentity != ep {
			p.reject(w, codes.Forbidden, "the EDHOC credential's subject is not the endpoint")
			return
		}
		e.identity = *pr.certIdentity
	} else if pr.secure && pr.certIdentity == nil && pr.pskIdentity != "" {
		// DTLS-PSK: the session authenticated the endpoint by its key.
		if pr.pskIdentity != ep {
			p.reject(w, codes.Forbidden, "PSK identity is not the endpoint")
			return
		}
	} else {
		ck, err := links[0].PublicKey()
		if err != nil {
			p.reject(w, codes.BadRequest, "registration without a pk attribute")
			return
		}
		for _, l := range links[1:] {
			if k, err := l.PublicKey(); err != nil || !bytes.Equal(k, ck) {
				p.reject(w, codes.BadRequest, "links carry different keys")
				return
			}
		}
		key, alg, err := ParseCOSEKey(ck)
		if err != nil {
			p.reject(w, codes.BadRequest, "pk is not a public COSE_Key")
			return
		}
		e.identity, e.key, e.alg, e.coseKey = NewIdentity(ck, ep), key, alg, ck
		if !p.cfg.Authorised.Allows(e.identity) {
			p.reject(w, codes.Forbidden, "identity not authorised")
			return
		}
		if pr.certIdentity != nil && *pr.certIdentity != e.identity {
			p.reject(w, codes.Forbidden, "pk is not the key the DTLS session authenticated")
			return
		}
	}
	p.mu.Lock()
	if old, ok := p.endpoints[ep]; ok {
		if old.identity != e.identity {
			p.mu.Unlock()
			p.reject(w, codes.Forbidden, "endpoint registered with another key")
			return
		}
		// Re-registration (RFC 9176 §5.3: same ep replaces the old one).
		e.id, e.mirrored, e.last = old.id, old.mirrored, old.last
	} else {
		p.nextID++
		e.id = strconv.Itoa(p.nextID)
	}
	p.endpoints[ep], p.byID[e.id] = e, e
	p.stats.Accepted++
	p.mu.Unlock()
	_ = w.SetResponse(codes.Created, message.TextPlain, nil,
		message.Option{ID: message.LocationPath, Value: []byte("m")},
		message.Option{ID: message.LocationPath, Value: []byte(e.id)})
}

func (p *Proxy) lookup(w mux.ResponseWriter, queries []string) {
	ep, _ := query(queries, "ep")
	p.mu.Lock()
	e, ok := p.endpoints[ep]
	var links []Link
	if ok {
		for _, l := range e.links {
			l.Target = "/m/" + e.id + "/" + strings.TrimPrefix(l.Target, "/")
			links = append(links, l)
		}
	}
	p.mu.Unlock()
	if !ok {
		p.reject(w, codes.NotFound, "no such endpoint")
		return
	}
	_ = w.SetResponse(codes.Content, message.AppLinkFormat, bytes.NewReader([]byte(FormatLinks(links))))
}

// hasResource reports whether the endpoint registered resource name.
func (e *endpoint) hasResource(name string) bool {
	for _, l := range e.links {
		if strings.TrimPrefix(l.Target, "/") == name {
			return true
		}
	}
	return false
}

func (p *Proxy) put(w mux.ResponseWriter, r *mux.Message, id, res string, body []byte, pr peer) {
	p.mu.Lock()
	e, ok := p.byID[id]
	p.mu.Unlock()
	if !ok || !e.hasResource(res) {
		p.reject(w, codes.NotFound, "unregistered resource")
		return
	}
	if pr.secure {
		if (pr.certIdentity != nil && *pr.certIdentity != e.identity) || (pr.certIdentity == nil && pr.pskIdentity != e.name) {
			p.reject(w, codes.Forbidden, "the DTLS session is not this endpoint's")
			return
		}
	}
	cf, _ := r.ContentFormat()
	payload := body
	if !pr.secure {
		obj := objectFormatFor(cf)
		if obj == nil || e.key == nil {
			p.reject(w, codes.UnsupportedMediaType, "unprotected reading refused: send a signed object or use DTLS")
			return
		}
		start := time.Now()
		pl, err := obj.Verify(e.key, e.alg, body)
		p.mu.Lock()
		p.stats.VerifyNs = append(p.stats.VerifyNs, float64(time.Since(start).Nanoseconds()))
		p.mu.Unlock()
		if err != nil {
			p.reject(w, codes.Unauthorized, "signature does not verify")
			return
		}
		payload = pl
	}
	pack, err := p.cfg.Encoding.Unmarshal(payload)
	if err != nil {
		p.reject(w, codes.BadRequest, "not a SenML pack")
		return
	}
	t, err := ReadingTime(pack)
	if err != nil {
		p.reject(w, codes.BadRequest, "reading without a time")
		return
	}
	p.mu.Lock()
	if t <= e.last {
		p.mu.Unlock()
		p.reject(w, codes.Unauthorized, "stale reading (replay)")
		return
	}
	e.last = t
	e.mirrored[res] = &representation{contentFormat: cf, body: append([]byte(nil), body...)}
	p.stats.Accepted++
	p.mu.Unlock()
	_ = w.SetResponse(codes.Changed, message.TextPlain, nil)
}

func (p *Proxy) get(w mux.ResponseWriter, id, res string) {
	p.mu.Lock()
	e, ok := p.byID[id]
	var rep *representation
	if ok {
		rep = e.mirrored[res]
	}
	p.mu.Unlock()
	if rep == nil {
		p.reject(w, codes.NotFound, "no reading yet")
		return
	}
	p.mu.Lock()
	body, compromise := rep.body, p.cfg.Compromise
	p.mu.Unlock()
	if compromise != nil {
		body = compromise(append([]byte(nil), body...))
	}
	_ = w.SetResponse(codes.Content, rep.contentFormat, bytes.NewReader(body))
}

// objectFormatFor returns the object format with Content-Format cf.
func objectFormatFor(cf message.MediaType) ObjectFormat {
	for _, p := range Protections {
		if p.Object != nil && p.Object.ContentFormat() == cf {
			return p.Object
		}
	}
	return nil
}
