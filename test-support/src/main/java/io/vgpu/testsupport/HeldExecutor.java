package io.vgpu.testsupport;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * An executor that runs nothing until the test says so: tasks are held in arrival order and run by
 * {@link #runHeld()} on the caller's thread. Installed as a replica's view feed, it makes a view that lags the
 * shared state or the API server for exactly as long as the test wants (no clock involved). Safe from any thread.
 */
public final class HeldExecutor implements Executor {

    private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();

    @Override
    public void execute(Runnable task) {
        held.add(task);
    }

    /** How many tasks wait. */
    public int held() {
        return held.size();
    }

    /** Runs every task held so far (and any added meanwhile), in arrival order; returns how many ran. */
    public synchronized int runHeld() {
        int ran = 0;
        for (Runnable task = held.poll(); task != null; task = held.poll()) {
            task.run();
            ran++;
        }
        return ran;
    }
}
