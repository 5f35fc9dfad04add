package app_test

import (
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/streamcart/streamcart/api/app"
	gensession "github.com/streamcart/streamcart/gen/session"
)

// smtpSink is a minimal ESMTP server that accepts every message and keeps the envelope and data.
type smtpSink struct {
	addr string
	mu   sync.Mutex
	got  []string // "FROM:<a> TO:<b>\n" + data, one per message
}

func startSMTPSink(t *testing.T) *smtpSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	k := &smtpSink{addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go k.serve(c)
		}
	}()
	return k
}

func (k *smtpSink) serve(c net.Conn) {
	defer c.Close()
	tp := textproto.NewConn(c)
	tp.PrintfLine("220 sink.example ESMTP")
	var from, to string
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			tp.PrintfLine("250 sink.example")
		case "MAIL":
			from = arg
			tp.PrintfLine("250 ok")
		case "RCPT":
			to = arg
			tp.PrintfLine("250 ok")
		case "DATA":
			tp.PrintfLine("354 go ahead")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			k.mu.Lock()
			k.got = append(k.got, from+" "+to+"\n"+string(b))
			k.mu.Unlock()
			tp.PrintfLine("250 queued")
		case "QUIT":
			tp.PrintfLine("221 bye")
			return
		default:
			tp.PrintfLine("502 unknown command")
		}
	}
}

// A sign-in link requested from a shop with STREAMCART_SMTP_URL goes out through the send job.
func TestSignInLinkMailedBySMTP(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		sink := startSMTPSink(t)
		s := newShop(t, func(c *app.Config) { c.SMTPURL = "smtp://" + sink.addr + "?from=shop@example.com" })
		s.identify("smtp@example.com", "")
		if err := s.session.RequestLink(t.Context(), &gensession.RequestLinkPayload{Email: "smtp@example.com"}); err != nil {
			t.Fatalf("POST /session/link: %v", err)
		}
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND status = 'pending'`, "smtp@example.com"); n != 1 {
			t.Fatalf("%d pending messages, want 1", n)
		}
		s.drain()
		if n := s.count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND status = 'sent' AND sent_at <> ''`, "smtp@example.com"); n != 1 {
			t.Fatalf("%d sent messages, want 1", n)
		}
		sink.mu.Lock()
		defer sink.mu.Unlock()
		if len(sink.got) != 1 {
			t.Fatalf("server received %d messages, want 1", len(sink.got))
		}
		m := sink.got[0]
		if !strings.HasPrefix(m, "FROM:<shop@example.com> TO:<smtp@example.com>\n") || !strings.Contains(m, "\nTo: smtp@example.com\n") || !signinToken.MatchString(m) {
			t.Fatalf("received:\n%s", m)
		}
	})
}
