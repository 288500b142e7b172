package io.vgpu.simulate;

import java.io.PrintWriter;

/**
 * A one-line text progress bar, redrawn in place at most every 2 % of the work on a terminal; without
 * a terminal (CI logs, pipes) it prints a plain line every 25 %.
 */
final class ProgressBar {

    private static final int WIDTH = 40;

    private final PrintWriter out;
    private final int total;
    private final boolean terminal = System.console() != null;
    private int lastDrawn = -1;

    ProgressBar(PrintWriter out, int total) {
        this.out = out;
        this.total = total;
    }

    void update(int done) {
        int percent = total == 0 ? 100 : (int) (100L * done / total);
        if (!terminal) {
            if (percent / 25 != lastDrawn / 25) {
                lastDrawn = percent;
                out.println("progress: " + percent + "% (" + done + "/" + total + ")");
                out.flush();
            }
            return;
        }
        if (percent / 2 != lastDrawn / 2 || done == total) {
            lastDrawn = percent;
            int filled = WIDTH * percent / 100;
            out.print("\r[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + percent + "% (" + done + "/"
                    + total + ")");
            out.flush();
        }
    }

    void finish() {
        if (terminal) {
            out.println();
            out.flush();
        }
    }
}
