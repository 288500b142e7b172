package io.vgpu.deviceplugin.testing;

import io.vgpu.deviceplugin.core.hook.HookFiles;
import io.vgpu.deviceplugin.core.hook.HookPaths;
import io.vgpu.deviceplugin.core.port.HostFiles;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** A {@link HostFiles} that records what would be created and reports configured file presence. */
public final class FakeHostFiles implements HostFiles {

    private final HookFiles files;
    private final List<String> recreated = new ArrayList<>();
    private final Set<String> ensured = new LinkedHashSet<>();
    private String failure;

    public FakeHostFiles(HookFiles files) {
        this.files = files;
    }

    /** Every {@link #prepare} fails with {@code message}. */
    public synchronized FakeHostFiles failPrepare(String message) {
        this.failure = message;
        return this;
    }

    /** Directories recreated, in order. */
    public synchronized List<String> recreated() {
        return List.copyOf(recreated);
    }

    /** Directories ensured. */
    public synchronized List<String> ensured() {
        return List.copyOf(ensured);
    }

    @Override
    public CompletionStage<HookFiles> inspect(HookPaths paths) {
        return CompletableFuture.completedFuture(files);
    }

    @Override
    public synchronized CompletionStage<Void> prepare(List<String> containerDirs, String lockDir) {
        if (failure != null) {
            return CompletableFuture.failedFuture(new IllegalStateException(failure));
        }
        recreated.addAll(containerDirs);
        if (!containerDirs.isEmpty()) {
            ensured.add(lockDir);
        }
        return CompletableFuture.completedFuture(null);
    }
}
