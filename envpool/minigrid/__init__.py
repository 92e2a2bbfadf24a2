"""MiniGrid and BabyAI (minigrid 3.2.0) in C++: the MiniGrid levels (Empty, DoorKey,
FourRooms, MultiRoom, KeyCorridor, Crossing, LavaGap, DistShift, Dynamic-Obstacles,
Fetch, GoTo*, LockedRoom, Memory, ObstructedMaze, Playground, PutNear, RedBlueDoors,
Unlock*) and every BabyAI level."""
