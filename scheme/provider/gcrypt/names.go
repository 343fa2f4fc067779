package gcrypt

import "github.com/cryptocost/cryptocost/scheme"

// Name is the provider's name in the registry ("Serpent-128@gcrypt").
const Name scheme.Provider = "gcrypt"

const (
	description   = "libgcrypt 1.10 (GnuPG's crypto library), C through cgo"
	debianPackage = "libgcrypt20-dev"
)
