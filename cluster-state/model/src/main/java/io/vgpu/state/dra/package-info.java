/**
 * DRA mode's pure model (DESIGN.md §8): the names on the wire and, as DRA mode grows, the slice
 * content builder shared by the node agent and the simulator. JDK only, like the rest of the model.
 */
package io.vgpu.state.dra;
