package probe

// The wire codec is internal/tlswire's (records, handshake messages on
// cryptobyte, shared with the TLS lab); these names keep the probe's API
// and let its code read as before.

import "github.com/cryptocost/cryptocost/internal/tlswire"

// Record content types (RFC 8446 §5.1, RFC 6520 for heartbeat).
const (
	recordChangeCipherSpec = tlswire.ContentChangeCipherSpec
	recordAlert            = tlswire.ContentAlert
	recordHandshake        = tlswire.ContentHandshake
	recordApplicationData  = tlswire.ContentApplicationData
	recordHeartbeat        = tlswire.ContentHeartbeat
)

// Handshake message types (RFC 8446 §4, RFC 5246 §7.4, RFC 6066 §8).
const (
	typeHelloRequest        = tlswire.TypeHelloRequest
	typeClientHello         = tlswire.TypeClientHello
	typeServerHello         = tlswire.TypeServerHello
	typeNewSessionTicket    = tlswire.TypeNewSessionTicket
	typeEndOfEarlyData      = tlswire.TypeEndOfEarlyData
	typeEncryptedExtensions = tlswire.TypeEncryptedExtensions
	typeCertificate         = tlswire.TypeCertificate
	typeServerKeyExchange   = tlswire.TypeServerKeyExchange
	typeCertificateRequest  = tlswire.TypeCertificateRequest
	typeServerHelloDone     = tlswire.TypeServerHelloDone
	typeCertificateVerify   = tlswire.TypeCertificateVerify
	typeClientKeyExchange   = tlswire.TypeClientKeyExchange
	typeFinished            = tlswire.TypeFinished
	typeCertificateStatus   = tlswire.TypeCertificateStatus
	typeKeyUpdate           = tlswire.TypeKeyUpdate
	typeCompressedCert      = tlswire.TypeCompressedCert
)

// Extension code points (IANA "TLS ExtensionType Values").
const (
	extServerName           = tlswire.ExtServerName
	extStatusRequest        = tlswire.ExtStatusRequest
	extSupportedGroups      = tlswire.ExtSupportedGroups
	extECPointFormats       = tlswire.ExtECPointFormats
	extSignatureAlgorithms  = tlswire.ExtSignatureAlgorithms
	extALPN                 = tlswire.ExtALPN
	extSCT                  = tlswire.ExtSCT
	extEncryptThenMAC       = tlswire.ExtEncryptThenMAC
	extExtendedMasterSecret = tlswire.ExtExtendedMasterSecret
	extSessionTicket        = tlswire.ExtSessionTicket
	extPreSharedKey         = tlswire.ExtPreSharedKey
	extSupportedVersions    = tlswire.ExtSupportedVersions
	extCookie               = tlswire.ExtCookie
	extPSKModes             = tlswire.ExtPSKModes
	extKeyShare             = tlswire.ExtKeyShare
	extRenegotiationInfo    = tlswire.ExtRenegotiationInfo
)

// HelloRetryRequest: SHA-256("HelloRetryRequest") (RFC 8446 §4.1.3).
var helloRetryRequestRandom = tlswire.HelloRetryRequestRandom

// The messages (tlswire/messages.go).
type (
	KeyShare          = tlswire.KeyShare
	Extension         = tlswire.Extension
	ClientHello       = tlswire.ClientHello
	ServerHello       = tlswire.ServerHello
	Alert             = tlswire.Alert
	CertificateEntry  = tlswire.CertificateEntry
	Certificate       = tlswire.Certificate
	CertificateStatus = tlswire.CertificateStatus
	ServerKeyExchange = tlswire.ServerKeyExchange
	NewSessionTicket  = tlswire.NewSessionTicket
)

func handshakeName(t uint8) string { return tlswire.HandshakeName(t) }

func parseServerKeyExchange(data []byte, suite Suite, version Version) (*ServerKeyExchange, error) {
	return tlswire.ParseServerKeyExchange(data, suite, version)
}

// marshalRecords frames payload as records (tlswire.MarshalRecords).
func marshalRecords(typ uint8, version Version, payload []byte) []byte {
	return tlswire.MarshalRecords(typ, uint16(version), payload)
}

// clone copies b; empty becomes nil.
func clone(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return append([]byte{}, b...)
}
