package io.vgpu.gateway.core.request;

import io.vgpu.state.model.ContainerRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a pod asks of each vendor, per container (spec §4.3, HAMi {@code PodDeviceRequests}): one
 * map per container, <b>init containers first</b>, then app containers, each keyed by vendor word
 * and holding only non-empty requests ({@code Map.of()} = the container asks for nothing).
 *
 * @param containers one vendor → request map per container, init containers first
 * @param initCount  number of init containers at the head of {@code containers}
 */
public record PodRequests(List<Map<String, ContainerRequest>> containers, int initCount) {

    /** Copies the list and maps; requires {@code 0 ≤ initCount ≤ containers.size()}. */
    public PodRequests {
        List<Map<String, ContainerRequest>> copy = new ArrayList<>(containers.size());
        containers.forEach(m -> copy.add(Map.copyOf(m)));
        containers = List.copyOf(copy);
        if (initCount < 0 || initCount > containers.size()) {
            throw new IllegalArgumentException("initCount " + initCount + " outside 0.." + containers.size());
        }
    }

    /** "The pod has HAMi resources": some container asks some vendor for something. */
    public boolean hasAny() {
        return containers.stream().anyMatch(m -> !m.isEmpty());
    }

    /** The init containers' maps, in order. */
    public List<Map<String, ContainerRequest>> initContainers() {
        return containers.subList(0, initCount);
    }

    /** The app containers' maps, in order. */
    public List<Map<String, ContainerRequest>> appContainers() {
        return containers.subList(initCount, containers.size());
    }

    /** The request of container {@code index} (init first) for {@code vendor}, if any. */
    public Optional<ContainerRequest> request(int index, String vendor) {
        return Optional.ofNullable(containers.get(index).get(vendor));
    }
}
