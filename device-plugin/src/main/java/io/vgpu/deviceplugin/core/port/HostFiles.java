package io.vgpu.deviceplugin.core.port;

import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.hook.HookPaths;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The host file system as the plugin touches it through its hostPath mounts (HAMi-core files under
 * {@code HOOK_PATH}, the per-container cache directories, {@code /tmp/vgpulock}). Implementations do
 * the blocking I/O off the caller's thread.
 */
public interface HostFiles {

    /** Which optional HAMi-core files exist. Never fails: an unreadable file counts as absent. */
    CompletionStage<HookFiles> inspect(HookPaths paths);

    /**
     * Deletes and recreates every directory of {@code containerDirs} (empty, mode 0777), then, when the
     * list is not empty, makes sure {@code lockDir} exists with mode 0777. Fails with the first I/O error.
     */
    CompletionStage<Void> prepare(List<String> containerDirs, String lockDir);
}
