// RSA-512 and RSA-768 are measured because the seed studies measured them;
// crypto/rsa refuses keys below 1024 bits unless this setting is given.
//go:debug rsa1024min=0

package scheme
