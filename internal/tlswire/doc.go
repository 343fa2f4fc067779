// Package tlswire is the TLS wire codec the probe, the TLS lab's tap and
// accounting, the lab's psk_ke client and the pcapng dissection share: the
// record layer (plaintext and TLS 1.3 protected records, size caps), the
// TLS 1.3 key schedule and record protection (RFC 8446 §5.2–5.3, §7), the
// NSS key log format, and the name tables.
//
// It is in the shape of Go's crypto/tls (handshake_messages.go, conn.go):
// every structure is read and written with golang.org/x/crypto/cryptobyte,
// never by indexing bytes. It exists because crypto/tls keeps its codec and
// key schedule internal (crypto/internal/fips140/tls13), and the tools must
// read what a peer sent — records another implementation wrote, handshakes
// crypto/tls cannot finish (psk_ke, session-ID resumption with the probe's
// own hello) — byte for byte.
package tlswire
