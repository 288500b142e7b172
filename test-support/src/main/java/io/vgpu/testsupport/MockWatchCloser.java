package io.vgpu.testsupport;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Takes the close of a watch off the event loop of fabric8's mock API server, so that a watch closed while the mock
 * is sending it an event no longer stalls the server.
 *
 * <p>Why: fabric8 8.0.0's CRUD mock ({@code WatchEventsListener.onClosed} and {@code onFailure}) shuts down the
 * watch's sender thread and waits up to a minute for it, on the server's event loop. A sender that is in the middle
 * of a send waits (up to 30 s, {@code VertxMockWebSocket.send}) for a write that only that event loop can complete.
 * So closing a watch during an event stalls the loop for 30 s, and {@code MockWebServer.shutdown()} fails after its
 * own 10 s with "Unable to close MockWebServer". Run from another thread, the same close completes at once: the loop
 * is free to finish the write, the sender ends, the wait returns.
 *
 * <p>Use: hand every response of the mock's dispatcher to {@link #wrap}; after destroying the server, call
 * {@link #awaitClosed} so that the test leaves no close behind (it fails if one did not finish).
 */
public final class MockWatchCloser implements AutoCloseable {

    private final ExecutorService closer = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "mock-watch-close");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<CompletableFuture<Void>> pending = ConcurrentHashMap.newKeySet();
    private final Consumer<WebSocketListener> beforeClose;

    /** Closes watches off the loop, as the mock would close them otherwise. */
    public MockWatchCloser() {
        this(listener -> { });
    }

    /**
     * @param beforeClose told the mock's own listener of a watch that closes or fails, on the mock's event loop,
     *                    before its close is handed off (e.g. to take the watch out of a set of open watches at once,
     *                    so that nothing more is sent to it while it shuts down)
     */
    public MockWatchCloser(Consumer<WebSocketListener> beforeClose) {
        this.beforeClose = beforeClose;
    }

    /** Returns {@code response}, its WebSocket listener (a watch), if any, replaced by one that closes off the loop. */
    public MockResponse wrap(MockResponse response) {
        WebSocketListener listener = response.getWebSocketListener();
        if (listener != null && !(listener instanceof OffLoopClose)) {
            response.withWebSocketUpgrade(new OffLoopClose(listener));
        }
        return response;
    }

    /** How many closes were handed off and have not finished yet. */
    public int pendingCloses() {
        return pending.size();
    }

    /**
     * Waits for every close handed off so far.
     *
     * @throws IllegalStateException when one failed or is not done within {@code timeout}
     */
    public void awaitClosed(Duration timeout) {
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the mock's watch closes", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a mock watch close failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(pending.size() + " mock watch close(s) not done within " + timeout, e);
        }
    }

    /** Stops the close threads (after {@link #awaitClosed}; a close still running is interrupted). */
    @Override
    public void close() {
        closer.shutdownNow();
    }

    private void offLoop(WebSocketListener listener, Runnable callback) {
        beforeClose.accept(listener);
        Runnable close = () -> {
            try {
                callback.run();
            } catch (RejectedExecutionException e) {
                // the mock's own executor has terminated ("event executor terminated": the server is going away, a
                // device-plugin CI run of 2026-12-07): nothing is left to close, and the test's stop must not fail
            }
        };
        CompletableFuture<Void> done;
        try {
            done = CompletableFuture.runAsync(close, closer);
        } catch (RejectedExecutionException e) {
            close.run(); // closed already (the server is going away): as the mock would have
            return;
        }
        pending.add(done);
        done.whenComplete((v, e) -> {
            if (e == null) {
                pending.remove(done);
            }
        });
    }

    /** The mock's listener, with its two blocking callbacks moved to {@link #closer}. */
    private final class OffLoopClose extends WebSocketListener {

        private final WebSocketListener delegate;

        OffLoopClose(WebSocketListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            delegate.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            delegate.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            delegate.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, ByteString bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onPing(WebSocket webSocket, byte[] bytes) {
            delegate.onPing(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            delegate.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            offLoop(delegate, () -> delegate.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
            offLoop(delegate, () -> delegate.onFailure(webSocket, failure, response));
        }
    }
}
