package sodium

import "github.com/cryptocost/cryptocost/scheme"

// Name is the provider's name in the registry ("X25519@sodium").
const Name scheme.Provider = "sodium"

const (
	description   = "libsodium, C through cgo"
	debianPackage = "libsodium-dev"
)
