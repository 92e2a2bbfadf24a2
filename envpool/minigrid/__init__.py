"""MiniGrid envs (minigrid 3.2.0): Empty, DoorKey, FourRooms, MultiRoom, KeyCorridor,
Crossing, LavaGap, DistShift, Dynamic-Obstacles, Fetch, GoTo*, LockedRoom, Memory,
ObstructedMaze, Playground, PutNear, RedBlueDoors, Unlock*."""
