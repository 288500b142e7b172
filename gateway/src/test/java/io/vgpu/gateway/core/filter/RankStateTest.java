package io.vgpu.gateway.core.filter;

import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.state.model.NodeView;
import io.vgpu.state.model.ViewChanges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter that redoes only the nodes the view log names ({@link RankState}) answers exactly as one that scores every
 * node on every call, on randomized clusters, pods and node policies, while nodes change, vanish and come back, and
 * requests sometimes list other names; and it does read only the changed nodes. A source that hides its changes makes
 * the same comparison fail: the check can tell.
 */
class RankStateTest {

    private final FilterDecider uncached = new FilterDecider(FilterConfig.defaults(), null);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void decisionsFromTheLogEqualAFullWalkWhileNodesChange(long seed) {
        Run run = new Run(seed, new LoggedViews(false));
        assertThat(run.mismatches).as("calls answered otherwise than a full walk").isZero();
        assertThat(run.fits).as("the randomized pods fit somewhere in many calls").isGreaterThan(100);
        // most calls repeat the names of their shape's last call: those read only the nodes changed since (about
        // 8 calls of 1 change each), where walking every node would read all 60 on every call
        assertThat(run.views.reads).as("view reads over %d calls of %d names", run.calls, run.names.size())
                .isLessThan((long) run.calls * run.names.size() / 2);
    }

    @Test
    void aSourceThatHidesItsChangesGivesStaleAnswers() {
        int mismatches = 0;
        for (long seed = 1; seed <= 8; seed++) {
            mismatches += new Run(seed, new LoggedViews(true)).mismatches;
        }
        assertThat(mismatches).as("calls answered from outcomes the hidden changes made stale").isPositive();
    }

    @Test
    void aLogThatNoLongerReachesTheMarkReadsEveryNodeAgain() {
        ViewChanges log = new ViewChanges(4);
        long mark = log.mark();
        for (int i = 0; i < 4; i++) {
            log.changed("n" + i);
        }
        List<String> seen = new ArrayList<>();
        assertThat(log.changedSince(mark, seen::add)).isTrue();
        assertThat(seen).containsExactly("n0", "n1", "n2", "n3");
        log.changed("n4");
        assertThat(log.changedSince(mark, seen::add)).isFalse();
        assertThat(log.changedSince(log.mark() + 1, seen::add)).as("a mark the log never gave").isFalse();
        assertThat(log.changedSince(-1, seen::add)).isFalse();
        assertThat(seen).hasSize(4);
    }

    /** One randomized run: 600 calls of 8 pods over 60 nodes, each compared with a full walk. */
    private final class Run {
        final LoggedViews views;
        final List<String> names = new ArrayList<>();
        int mismatches;
        int fits;
        int calls;

        Run(long seed, LoggedViews views) {
            this.views = views;
            Random rnd = new Random(seed);
            FilterDecider decider = new FilterDecider(FilterConfig.defaults(), new VerdictCache(8, 1_000));
            for (int i = 0; i < 60; i++) {
                String name = "node-" + i;
                names.add(name);
                views.put(name, VerdictCacheTest.randomNode(rnd, name));
            }
            List<PodSpec> pods = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                pods.add(VerdictCacheTest.randomPod(rnd, i));
            }
            for (; calls < 600; calls++) {
                PodSpec pod = pods.get(rnd.nextInt(pods.size()));
                List<String> requested = names;
                int roll = rnd.nextInt(40);
                if (roll == 0) {
                    requested = new ArrayList<>();
                    for (String n : names) {
                        requested.add(new String(n)); // equal names, other objects: a full walk
                    }
                } else if (roll == 1) {
                    requested = new ArrayList<>(names);
                    requested.add(names.get(3)); // a name listed twice
                } else if (roll == 2) {
                    requested = names.subList(0, 30);
                }
                FilterDecision expected = uncached.decide(pod, requested, views.map::get, QuotaGate.NONE);
                FilterDecision actual = decider.decide(pod, requested, views, QuotaGate.NONE);
                if (!actual.equals(expected)) {
                    mismatches++;
                }
                if (expected instanceof FilterDecision.Fits) {
                    fits++;
                }
                change(rnd);
            }
        }

        /** The cluster moves on: a few nodes change, get an equal but new view, vanish or come back. */
        private void change(Random rnd) {
            for (int k = rnd.nextInt(3); k > 0; k--) {
                String name = names.get(rnd.nextInt(names.size()));
                NodeView v = views.map.get(name);
                int roll = rnd.nextInt(6);
                if (roll == 0 || v == null) {
                    views.put(name, VerdictCacheTest.randomNode(rnd, name));
                } else if (roll == 1) {
                    views.put(name, new NodeView(name, v.devices(), v.annotations(), v.pairScores()));
                } else if (roll == 2) {
                    views.remove(name);
                } else {
                    views.put(name, VerdictCacheTest.withLoad(rnd, v));
                }
            }
        }
    }

    /** Views with a log of their changes, as the store keeps them: the view replaced first, then the change logged. */
    private static final class LoggedViews implements ViewSource {
        final Map<String, NodeView> map = new HashMap<>();
        final ViewChanges log = new ViewChanges(64);
        final boolean hideChanges;
        long reads;

        LoggedViews(boolean hideChanges) {
            this.hideChanges = hideChanges;
        }

        void put(String name, NodeView view) {
            map.put(name, view);
            log.changed(name);
        }

        void remove(String name) {
            map.remove(name);
            log.changed(name);
        }

        @Override
        public NodeView node(String name) {
            reads++;
            return map.get(name);
        }

        @Override
        public long mark() {
            return log.mark();
        }

        @Override
        public boolean changedSince(long mark, Consumer<String> changed) {
            return hideChanges ? mark <= log.mark() : log.changedSince(mark, changed);
        }
    }
}
