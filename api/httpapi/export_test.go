package httpapi

// WithCompression is withCompression for the external tests of its cases no endpoint has (a
// large error answer, 204, 304, a body already encoded).
var WithCompression = withCompression

// AccessJSON, AccessAttrs and AccessMsg are the access line's two writers' parts, for the test
// that compares them.
var (
	AccessJSON  = accessJSON
	AccessAttrs = accessAttrs
)

const AccessMsg = accessMsg
