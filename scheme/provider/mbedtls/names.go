package mbedtls

import "github.com/cryptocost/cryptocost/scheme"

// Name is the provider's name in the registry ("AES-128-GCM@mbedtls").
const Name scheme.Provider = "mbedtls"

const (
	description   = "Mbed TLS 2.28 libmbedcrypto, C through cgo"
	debianPackage = "libmbedtls-dev"
)
