package io.vgpu.deviceplugin.dra.prepare;

import io.vgpu.deviceplugin.cdi.CdiSpec;
import io.vgpu.deviceplugin.core.hook.HookFiles;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * The files a prepared claim consists of on the host (a port: local files on a worker pool). Every
 * operation is idempotent, so a repeated or interrupted prepare or unprepare can simply run again.
 */
public interface PreparedFiles {

    /** What the host has now: the readable specs of the static CDI directories, and HAMi-core's optional files. */
    CompletionStage<Host> inspect();

    /**
     * Creates the claim's HAMi-core cache directory (mode 0777, kept when it exists: live regions are
     * in it) and writes its CDI spec atomically; when the stage completes, both are on disk. A claim
     * without a spec (no device of this driver) has no files.
     */
    CompletionStage<Void> write(PreparedClaim claim);

    /** Removes the claim's CDI spec and cache directory; nothing to do when they are gone. */
    CompletionStage<Void> remove(PreparedClaim claim);

    /**
     * What {@link #inspect} found.
     *
     * @param staticSpecs each readable spec of the static CDI directories, keyed by its file
     * @param hookFiles   which optional HAMi-core files exist
     */
    record Host(List<Map.Entry<String, CdiSpec>> staticSpecs, HookFiles hookFiles) {
        /** Copies the list. */
        public Host {
            staticSpecs = List.copyOf(staticSpecs);
        }
    }
}
