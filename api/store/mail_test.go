package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/streamcart/streamcart/api/mail"
	"github.com/streamcart/streamcart/api/store"
	"github.com/streamcart/streamcart/api/store/storetest"
)

func TestMailOutbox(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s store.Backend) {
		now := time.Now().UTC()
		stored, err := s.QueueMail(t.Context(), mail.Message{To: "a@example.com", Subject: "One", Body: "1"}, mail.StatusStored, false, now)
		if err != nil {
			t.Fatal(err)
		}
		sent, err := s.QueueMail(t.Context(), mail.Message{To: "b@example.com", Subject: "Two", Body: "2", HTML: "<p>2</p>"}, mail.StatusPending, true, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := storetest.Inspect(s).JobByKey(t.Context(), mail.JobSend+":"+itoa(sent)); err != nil {
			t.Fatalf("send job of a pending mail: %v", err)
		}
		if _, err := storetest.Inspect(s).JobByKey(t.Context(), mail.JobSend+":"+itoa(stored)); err == nil {
			t.Fatal("a stored-only mail has a send job")
		}
		if err := s.MarkMail(t.Context(), sent, mail.StatusSent, "", now); err != nil {
			t.Fatal(err)
		}
		list, err := s.ListMail(t.Context(), 10)
		if err != nil || len(list) != 2 || list[0].ID != sent || list[0].Status != mail.StatusSent || list[0].SentAt.IsZero() || list[0].HTML != "<p>2</p>" || list[1].Subject != "One" || list[1].HTML != "" {
			t.Fatalf("outbox %+v %v", list, err)
		}
		if _, err := s.Mail(t.Context(), 999999); !errors.Is(err, mail.ErrNotFound) {
			t.Fatalf("unknown mail: %v", err)
		}
	})
}
