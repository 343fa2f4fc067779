// Package tlslab measures what a TLS connection costs, message by message:
// it runs real handshakes and transfers between a client and a server it
// starts (Go's crypto/tls in process, or OpenSSL's s_server and s_client),
// through a relay on loopback that emulates a link (package link) and taps
// both directions — or, with no link to emulate and a client in this
// process, with no relay at all and the tap on the client's own socket
// (tapconn.go; docs/tls.md § Benchmarks compares it with a plain crypto/tls
// loop) — and attributes every byte to a record type and handshake message
// (decrypting TLS 1.3 with the secrets the peers log), counts flights and
// round trips, times each step as the client sees it, reads both sides'
// CPU time, models the TCP/IP packets, and writes pcapng.
//
// A Cell is one configuration of the matrix (version, key exchange, bulk
// cipher, certificate, chain, client authentication, resumption, transfer,
// peers); Presets name matrices (the S000 study's, and a modern one). A Lab
// runs cells: Run measures one, Result turns it into the shared result model
// (Subject kind "tls"; metric names in results.go and docs/tls.md), and
// WriteTables prints runs in the shape of the study's tables. The parsers
// (ParseRecords, ParseHandshakeMessages, ParseClientHello, ParseServerHello,
// ParseKeyLog) and Analyze work on any TLS byte streams.
// Request is a run as a command line gives it (`cryptocost tls`: a preset,
// the flags that replace its dimensions, the link): Check before any
// work, then Run.
//
// The lab prices nothing: each connection's result records the client's
// CPU work (ClientWork: which scheme's operation, how often, on what
// input, by which implementation) and its packet trace, and the costing
// stage (package costing) prices them on a device afterwards.
package tlslab
