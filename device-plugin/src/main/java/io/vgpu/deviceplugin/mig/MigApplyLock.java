package io.vgpu.deviceplugin.mig;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * HAMi's MIG apply lock file {@code /tmp/hami/hami-mig-apply.lock} (host {@code /tmp}): it exists
 * while MIG instances are being created or destroyed, and the vGPU monitor pauses its feedback loop
 * meanwhile (it must not touch regions of containers whose devices are changing). The plugin creates
 * the directory and removes a stale file at start. Failing to write the file is logged, never fatal:
 * it only pauses the monitor. Blocking file I/O: call on the MIG worker only.
 */
final class MigApplyLock {

    private static final Logger LOG = LoggerFactory.getLogger(MigApplyLock.class);

    private final Path file;

    MigApplyLock(Path file) {
        this.file = file;
    }

    /** Creates the lock's directory and removes a lock left by a previous process. */
    void reset() {
        try {
            Files.createDirectories(file.getParent());
            if (Files.deleteIfExists(file)) {
                LOG.info("removed a stale MIG apply lock {}", file);
            }
        } catch (IOException e) {
            LOG.warn("cannot prepare the MIG apply lock {}: {}", file, e.toString());
        }
    }

    /** Runs {@code change} with the lock file present. */
    <T> T hold(Supplier<T> change) {
        boolean created = false;
        try {
            Files.createDirectories(file.getParent());
            Files.createFile(file);
            created = true;
        } catch (FileAlreadyExistsException e) {
            LOG.debug("MIG apply lock {} already present", file);
        } catch (IOException e) {
            LOG.warn("cannot create the MIG apply lock {}: {}", file, e.toString());
        }
        try {
            return change.get();
        } finally {
            if (created) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.warn("cannot remove the MIG apply lock {}: {}", file, e.toString());
                }
            }
        }
    }

    Path file() {
        return file;
    }
}
