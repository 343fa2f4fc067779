package tlslab

import "github.com/cryptocost/cryptocost/internal/tlswire"

// The record layer is internal/tlswire's; these names keep tlslab's
// library API (docs/tls.md: ParseRecords, Record, ContentName).
const (
	ContentChangeCipherSpec = tlswire.ContentChangeCipherSpec
	ContentAlert            = tlswire.ContentAlert
	ContentHandshake        = tlswire.ContentHandshake
	ContentApplicationData  = tlswire.ContentApplicationData
	ContentHeartbeat        = tlswire.ContentHeartbeat
	RecordHeaderLen         = tlswire.RecordHeaderLen
)

// Record is one TLS record of a byte stream.
type Record = tlswire.Record

// ErrNotTLS says a stream does not hold TLS records.
var ErrNotTLS = tlswire.ErrNotTLS

// ContentName is the RFC name of a record content type.
func ContentName(t uint8) string { return tlswire.ContentName(t) }

// ParseRecords splits a TLS byte stream into records (tlswire.ParseRecords).
func ParseRecords(stream []byte) (recs []Record, tail int, err error) {
	return tlswire.ParseRecords(stream)
}
