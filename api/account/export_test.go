package account

// Hasher is the password work of a sign-in, for tests that count it.
type Hasher = hasher

// BcryptHasher is the hasher New uses.
var BcryptHasher Hasher = bcryptHasher{}

// SetHasher makes s do its password work through h.
func SetHasher(s *Service, h Hasher) { s.passwords = h }
