package id

// At is New at a given time, so tests order ids without waiting for the clock.
var At = at
