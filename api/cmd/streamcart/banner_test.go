package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeBanner: serve prints, before any log line, the shop's address on localhost (the
// README's), the console's, that the sandbox takes no real money, and the command adding an
// operator to the same database.
func TestServeBanner(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:"+port, "--db", db)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STREAMCART_TEST_RUN_MAIN=1")
	// One pipe for both streams: what comes first on a terminal comes first here.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		r.Close()
	})
	lines := make(chan []string, 1)
	go func() {
		var got []string
		sc := bufio.NewScanner(r)
		for len(got) < 4 && sc.Scan() {
			got = append(got, sc.Text())
		}
		lines <- got
	}()
	var got []string
	select {
	case got = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatal("no banner within 30 s")
	}
	base := "http://localhost:" + port
	want := []string{
		"Shop:     " + base + "/checkout/",
		"Console:  " + base + "/checkout/admin/",
		"Payments: sandbox: no real money",
		"Operator: " + os.Args[0] + " operator add you@example.com --role owner --db " + db,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("first lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := operatorAddCommand(defaultDB); strings.Contains(c, "--db") {
		t.Fatalf("operatorAddCommand(default) = %q, want no --db", c)
	}
	if c := operatorAddCommand("postgres://u:secret@h/db"); strings.Contains(c, "secret") || !strings.HasPrefix(c, "STREAMCART_DB=… ") {
		t.Fatalf("operatorAddCommand(postgres URL) = %q, want it by its variable", c)
	}
}
