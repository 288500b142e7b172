package io.vgpu.deviceplugin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * Watches kubelet's device-plugin directory (inotify through the JDK's {@link WatchService}) on a
 * daemon thread and calls back when {@code kubelet.sock} is created: kubelet restarted, deleted every
 * plugin socket, and waits for plugins to register again (spec §1.1). Socket deletion alone is ignored,
 * as in HAMi. An overflow (events lost) counts as a creation when the socket exists.
 */
final class KubeletSocketWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubeletSocketWatcher.class);

    private final WatchService watcher;
    private final Thread thread;

    private KubeletSocketWatcher(WatchService watcher, Path socket, Runnable onCreated) {
        this.watcher = watcher;
        this.thread = new Thread(() -> loop(socket, onCreated), "kubelet-socket-watcher");
        this.thread.setDaemon(true);
    }

    /**
     * Starts watching the directory of {@code kubeletSocket}.
     *
     * @param onCreated called on the watcher thread; must hand off quickly (e.g. {@code vertx.runOnContext})
     * @throws IOException when the directory cannot be watched
     */
    public static KubeletSocketWatcher start(Path kubeletSocket, Runnable onCreated) throws IOException {
        Path dir = kubeletSocket.toAbsolutePath().getParent();
        WatchService service = FileSystems.getDefault().newWatchService();
        dir.register(service, StandardWatchEventKinds.ENTRY_CREATE);
        KubeletSocketWatcher w = new KubeletSocketWatcher(service, kubeletSocket.toAbsolutePath(), onCreated);
        w.thread.start();
        return w;
    }

    private void loop(Path socket, Runnable onCreated) {
        try {
            while (true) {
                WatchKey key = watcher.take();
                boolean created = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                        created |= Files.exists(socket);
                    } else if (socket.getFileName().equals(event.context())) {
                        created = true;
                    }
                }
                key.reset();
                if (created) {
                    LOG.info("{} was created: kubelet restarted", socket);
                    onCreated.run();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ClosedWatchServiceException closed) {
            // close() ends the loop
        }
    }

    /** Stops watching. */
    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException e) {
            LOG.debug("closing the watch service failed", e);
        }
    }
}
